import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { PdfBoardOptions, type PdfBoardOptions as Options } from '../../src/contract/exports.js';
import type { ExportBoard, ExportShot } from '../../src/exports/export-board.js';
import { pdfBoard } from '../../src/exports/pdf/pdf-board.js';

/**
 * Dense PDF layouts (src/exports/pdf/pdf-board.ts): at 4 × 4 with every field, read back with pdfjs, each panel prints
 * every field's label and the start of its value (cut with an ellipsis, never left out), and the picture's frame (its
 * stroked rectangle) is measured against its column.
 */

const ALL_FIELDS = ['caption', 'action', 'dialogue', 'camera', 'lens', 'duration', 'notes'] as const;
const LABELS = ['Description', 'Action', 'Dialogue', 'Camera', 'Lens', 'Duration', 'Notes'];

const shot = (index: number): ExportShot => ({
  id: `s${index}`,
  number: `${index + 1}`,
  caption: `Caption of ${index + 1}, a wide view of the harbour at dawn`,
  action: `Action of ${index + 1}: she walks the length of the pier and stops`,
  dialogue: `Hi from ${index + 1}.`,
  notes: `Note ${index + 1}`,
  camera: 'Close-up · Low angle · Dolly / track',
  lensMm: 50,
  durationMs: 1000 + index * 100,
  picture: null,
  video: null,
  voiceOver: null,
});

const board: ExportBoard = {
  projectName: 'Moonrise',
  canvasTitle: 'Pitch canvas',
  boardTitle: 'Act One',
  revision: 1,
  date: '2024-05-01',
  aspect: 16 / 9,
  shots: Array.from({ length: 16 }, (_, index) => shot(index)),
  music: null,
};

/** Page 1's text items in order, and the picture frames' widths (the frames' grey stroke) over the column's width. */
async function read(input: Partial<Options>): Promise<{ items: string[]; widths: number[] }> {
  const options = PdfBoardOptions.parse({ columns: 4, rows: 4, fields: [...ALL_FIELDS], ...input });
  const bytes = (await pdfBoard(board, options, null, () => {})).bytes;
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const page = await pdf.getPage(1);
  const items = (await page.getTextContent()).items.flatMap((item) =>
    'str' in item && item.str.trim() ? [item.str] : [],
  );
  const { fnArray, argsArray } = await page.getOperatorList();
  // The page's content is its width less the two 28 pt margins; four columns with three 12 pt gutters between them.
  const column = (page.view[2]! - 56 - 3 * 12) / 4;
  let colour = '';
  const widths: number[] = [];
  fnArray.forEach((fn, index) => {
    const args = argsArray[index] as unknown[];
    if (fn === OPS.setStrokeRGBColor) colour = String(args[0]);
    if (fn === OPS.constructPath && args[0] === OPS.stroke && colour === '#9a9a9a') {
      const [minX, , maxX] = Array.from(args[2] as ArrayLike<number>);
      widths.push((maxX! - minX!) / column);
    }
  });
  await pdf.destroy();
  return { items, widths };
}

/** Each panel's text items: from its number to the next panel's. */
function panels(items: string[]): string[][] {
  const starts = board.shots.map((each) => items.indexOf(each.number, items.indexOf('Page 1 of 1')));
  return starts.map((start, index) => items.slice(start, starts[index + 1] ?? items.length));
}

describe('dense PDF layouts', () => {
  for (const [name, input] of [
    ['A4 landscape', {}],
    ['US Letter landscape', { paper: 'letter' }],
    ['A4 portrait', { orientation: 'portrait' }],
  ] as const) {
    it(`prints every field of every panel at 4 × 4 on ${name}, cut with an ellipsis rather than left out`, async () => {
      const { items, widths } = await read(input);
      const read16 = panels(items);
      expect(read16).toHaveLength(16);
      for (const [index, panel] of read16.entries()) {
        const shotRead = board.shots[index]!;
        for (const label of LABELS) expect(panel, `shot ${shotRead.number}: ${label}`).toContain(label);
        const text = panel.join(' ');
        // Each value, whole or cut: its first words are there, and a cut one ends in an ellipsis.
        for (const value of [shotRead.caption, shotRead.action, shotRead.dialogue, shotRead.camera, shotRead.notes])
          expect(text, `shot ${shotRead.number}`).toContain(value!.slice(0, 4));
        expect(text).toContain('50 mm');
        expect(text).toContain(`${Number(((1000 + index * 100) / 1000).toFixed(2))} s`);
      }
      expect(items.join(' ')).toContain('…');
      // The picture uses its column: the whole width where the panel is tall enough for a full-width frame and the
      // fields under it (portrait), else as much of it as leaves the fields two a line (A4 landscape: about half).
      expect(widths).toHaveLength(16);
      for (const width of widths) expect(width).toBeGreaterThan(name.includes('portrait') ? 0.99 : 0.47);
    });
  }
});
