import type { FloorPlanNodeData } from '../../contract/index.js';
import { horizontalFovDeg, SENSOR_FORMATS } from '../../shared/lens.js';
import type { ExportPlan } from '../export-board.js';
import type { Box } from './page-frame.js';
import { drawLines, type TextStyle } from './text.js';

/**
 * A floor plan on a PDF page, as vector drawing (docs/storyboards.md, "Floor plans"): walls, doors, props, the first
 * beat's characters and each camera with its field-of-view wedge from src/shared/lens.ts, labelled with its name, lens
 * and the number of the shot it films on this board. Scaled to fit the box, north up, the same way up as the canvas.
 */

const WALL = '#111111';
const WEDGE_FILL = '#dbe6fb';
const WEDGE_STROKE = '#2563eb';
const LABEL: TextStyle = { size: 8, weight: 'regular', color: '#1e3a8a' };
const TITLE: TextStyle = { size: 12, weight: 'bold', color: '#111111' };
/** Segments of a wedge's arc: smooth at print size, a few dozen path points. */
const ARC_STEPS = 24;

function extentOf(plan: FloorPlanNodeData): { x: number; y: number; width: number; height: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  const add = (x: number, y: number) => (xs.push(x), ys.push(y));
  for (const wall of plan.walls) for (const point of wall.points) add(point.x, point.y);
  for (const each of [...(plan.doors ?? []), ...(plan.props ?? []), ...plan.cameras]) add(each.x, each.y);
  for (const position of plan.beats?.[0]?.positions ?? []) add(position.x, position.y);
  if (xs.length === 0) return { x: -5, y: -5, width: 10, height: 10 };
  const x = Math.min(...xs) - 1;
  const y = Math.min(...ys) - 1;
  return { x, y, width: Math.max(Math.max(...xs) + 1 - x, 4), height: Math.max(Math.max(...ys) + 1 - y, 4) };
}

const radians = (deg: number) => (deg * Math.PI) / 180;

export function drawFloorPlan(doc: PDFKit.PDFDocument, { title, plan, shotNumbers }: ExportPlan, box: Box): void {
  drawLines(doc, [`Floor plan: ${title}`], TITLE, { x: box.x, y: box.y });
  const area = { x: box.x, y: box.y + TITLE.size * 2, width: box.width, height: box.height - TITLE.size * 2 };
  const extent = extentOf(plan);
  const scale = Math.min(area.width / extent.width, area.height / extent.height);
  const left = area.x + (area.width - extent.width * scale) / 2;
  const top = area.y + (area.height - extent.height * scale) / 2;
  const at = (x: number, y: number): [number, number] => [left + (x - extent.x) * scale, top + (y - extent.y) * scale];
  const reach = Math.max(extent.width, extent.height) * 0.3;

  doc.save();
  for (const camera of plan.cameras) {
    const half = horizontalFovDeg(camera.sensor, camera.lensMm) / 2;
    doc.moveTo(...at(camera.x, camera.y));
    for (let step = 0; step <= ARC_STEPS; step++) {
      const deg = camera.directionDeg - half + (2 * half * step) / ARC_STEPS;
      doc.lineTo(...at(camera.x + reach * Math.cos(radians(deg)), camera.y + reach * Math.sin(radians(deg))));
    }
    doc.closePath().lineWidth(0.6).fillAndStroke(WEDGE_FILL, WEDGE_STROKE);
  }
  for (const wall of plan.walls) {
    const [first, ...rest] = wall.points;
    if (!first) continue;
    doc.moveTo(...at(first.x, first.y));
    for (const point of rest) doc.lineTo(...at(point.x, point.y));
    doc.lineWidth(2).strokeColor(WALL).stroke();
  }
  for (const door of plan.doors ?? []) {
    doc
      .moveTo(...at(door.x, door.y))
      .lineTo(
        ...at(
          door.x + door.width * Math.cos(radians(door.angleDeg)),
          door.y + door.width * Math.sin(radians(door.angleDeg)),
        ),
      )
      .lineWidth(1)
      .strokeColor('#8a5a00')
      .stroke();
  }
  for (const prop of plan.props ?? []) {
    const [cx, cy] = at(prop.x, prop.y);
    doc.save().rotate(prop.rotationDeg ?? 0, { origin: [cx, cy] });
    doc
      .rect(cx - (prop.width * scale) / 2, cy - (prop.depth * scale) / 2, prop.width * scale, prop.depth * scale)
      .lineWidth(0.6)
      .fillAndStroke('#e2e8f0', '#475569');
    doc.restore();
    drawLines(doc, [prop.name], LABEL, { x: cx + 2, y: cy - LABEL.size / 2 });
  }
  const names = new Map((plan.characters ?? []).map((character) => [character.id, character.name]));
  for (const position of plan.beats?.[0]?.positions ?? []) {
    const [x, y] = at(position.x, position.y);
    doc.circle(x, y, 3).fill('#7c3aed');
    drawLines(doc, [names.get(position.character_id) ?? position.character_id], LABEL, { x: x + 5, y: y - 4 });
  }
  for (const camera of plan.cameras) {
    const [x, y] = at(camera.x, camera.y);
    doc.circle(x, y, 3.5).fill(WEDGE_STROKE);
    const number = shotNumbers[camera.id];
    const label = `${camera.name} · ${camera.lensMm} mm ${SENSOR_FORMATS[camera.sensor].label}${number ? ` · shot ${number}` : ''}`;
    drawLines(doc, [label], LABEL, { x: x + 6, y: y - 12 });
  }
  doc.restore();
}
