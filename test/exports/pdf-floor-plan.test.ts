import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { PdfBoardOptions } from '../../src/contract/exports.js';
import type { ExportBoard, ExportShot } from '../../src/exports/export-board.js';
import { pdfBoard } from '../../src/exports/pdf/pdf-board.js';
import { horizontalFovDeg } from '../../src/shared/lens.js';

/**
 * A floor plan in the PDF storyboard (docs/storyboards.md, "Floor plans"; src/exports/pdf/floor-plan.ts): read back
 * with pdfjs, the plan of a camera linked to shot 5 prints on a page after the board's shots as vector drawing (paths,
 * no picture), its camera labelled with the lens and the shot's number, and its wedge opening at the angle the lens
 * function gives.
 */

const shot = (index: number): ExportShot => ({
  id: `s${index}`,
  number: String(index),
  caption: `Shot ${index}`,
  action: null,
  dialogue: null,
  notes: null,
  camera: null,
  lensMm: index === 5 ? 35 : null,
  durationMs: 2000,
  picture: null,
  video: null,
  voiceOver: null,
});

const board = (withPlan: boolean): ExportBoard => ({
  projectName: 'Moonrise',
  canvasTitle: 'Pitch',
  boardTitle: 'Scene 2',
  revision: 3,
  date: '2024-05-01',
  aspect: 16 / 9,
  music: null,
  shots: [1, 2, 3, 4, 5, 6].map(shot),
  plans: withPlan
    ? [
        {
          title: 'The kitchen',
          plan: {
            walls: [
              {
                id: 'w1',
                points: [
                  { x: 0, y: 0 },
                  { x: 8, y: 0 },
                  { x: 8, y: 6 },
                  { x: 0, y: 6 },
                  { x: 0, y: 0 },
                ],
              },
            ],
            props: [{ id: 'table', name: 'Table', x: 5, y: 3, width: 1.6, depth: 0.9 }],
            characters: [{ id: 'mara', name: 'Mara' }],
            beats: [{ id: 'b1', positions: [{ character_id: 'mara', x: 6, y: 2 }] }],
            cameras: [
              {
                id: 'cam-A',
                name: 'A',
                x: 1,
                y: 3,
                directionDeg: 0,
                sensor: 'super35',
                lensMm: 35,
                shot: { board_node_id: 'board', shot_id: 's5' },
              },
            ],
          },
          shotNumbers: { 'cam-A': '5' },
        },
      ]
    : [],
});

interface Drawn {
  pages: number;
  text: string;
  /** Filled and stroked paths in the wedge's stroke colour, with their boxes. */
  wedges: Array<{ width: number; height: number }>;
  walls: number;
  images: number;
}

async function lastPage(bytes: Buffer): Promise<Drawn> {
  const pdf = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const page = await pdf.getPage(pdf.numPages);
  const text = (await page.getTextContent()).items.map((item) => ('str' in item ? item.str : '')).join('');
  const { fnArray, argsArray } = await page.getOperatorList();
  const wedges: Drawn['wedges'] = [];
  let walls = 0;
  let images = 0;
  let colour = '';
  fnArray.forEach((fn, index) => {
    const args = argsArray[index] as unknown[];
    if (fn === OPS.setStrokeRGBColor) colour = String(args[0]);
    if (fn === OPS.paintImageXObject) images += 1;
    if (fn === OPS.constructPath) {
      const [minX, minY, maxX, maxY] = Array.from(args[2] as ArrayLike<number>);
      if (args[0] === OPS.fillStroke && colour === '#2563eb')
        wedges.push({ width: maxX! - minX!, height: maxY! - minY! });
      if (args[0] === OPS.stroke && colour === '#111111') walls += 1;
    }
  });
  return { pages: pdf.numPages, text, wedges, walls, images };
}

const render = async (withPlan: boolean) =>
  (await pdfBoard(board(withPlan), PdfBoardOptions.parse({ columns: 3, rows: 2 }), null, () => {})).bytes;

describe('floor plans in the PDF storyboard', () => {
  it('prints the plan linked to shot 5 on a page after the shots, as vector drawing with the shot’s number', async () => {
    const drawn = await lastPage(await render(true));
    expect(drawn.pages).toBe(2);
    expect(drawn.text).toContain('Floor plan: The kitchen');
    expect(drawn.text).toContain('A · 35 mm Super 35 · shot 5');
    expect(drawn.text).toContain('Page 2 of 2');
    expect(drawn.text).toContain('Table');
    expect(drawn.text).toContain('Mara');
    expect(drawn.walls).toBe(1);
    expect(drawn.images).toBe(0);
  });

  it('opens the camera’s wedge at the angle of 35 mm on Super 35 (within 0.1°)', async () => {
    const { wedges } = await lastPage(await render(true));
    expect(wedges).toHaveLength(1);
    // Looking along +x: the wedge is `reach` long and 2·reach·sin(half angle) tall.
    const { width, height } = wedges[0]!;
    const angle = 2 * Math.asin(height / (2 * width)) * (180 / Math.PI);
    expect(Math.abs(angle - horizontalFovDeg('super35', 35))).toBeLessThan(0.1);
  });

  it('prints no plan page for a board no plan films', async () => {
    const drawn = await lastPage(await render(false));
    expect(drawn.pages).toBe(1);
    expect(drawn.text).not.toContain('Floor plan');
  });
});
