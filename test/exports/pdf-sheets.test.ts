import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfBoardOptions } from '../../src/contract/exports.js';
import type { ExportBoard, ExportShot } from '../../src/exports/export-board.js';
import { fontFile, splitRuns } from '../../src/exports/pdf/fonts.js';
import { pdfBoard } from '../../src/exports/pdf/pdf-board.js';
import { shotListPdf } from '../../src/exports/pdf/shot-list-pdf.js';

/**
 * The PDF storyboard and the printable shot list (src/exports/pdf): real pictures made with sharp, the PDFs read back
 * with pdfjs (their pages, sizes, text and embedded pictures).
 */

let dir = '';
const pictures: string[] = [];
let photo = '';
let logo = '';

/** A solid picture with a white disc, of a given size and format. */
async function makePicture(file: string, width: number, height: number, colour: string): Promise<string> {
  const disc = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="white"/></svg>`;
  await sharp({ create: { width, height, channels: 3, background: colour } })
    .composite([{ input: Buffer.from(disc) }])
    .toFile(file);
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pdf-sheets-'));
  pictures.push(
    await makePicture(path.join(dir, 'wide.png'), 1600, 900, '#c0392b'),
    await makePicture(path.join(dir, 'square.jpg'), 800, 800, '#2980b9'),
    await makePicture(path.join(dir, 'tall.webp'), 600, 1200, '#27ae60'),
  );
  // A 6000 × 4000 camera-sized photo: noise, so its JPEG weighs what a real one does (about 20 MB).
  photo = path.join(dir, 'photo.jpg');
  await sharp(randomBytes(6000 * 4000 * 3), { raw: { width: 6000, height: 4000, channels: 3 } })
    .jpeg({ quality: 90 })
    .toFile(photo);
  logo = path.join(dir, 'logo.png');
  await sharp({ create: { width: 300, height: 100, channels: 4, background: { r: 230, g: 126, b: 34, alpha: 0.8 } } })
    .png()
    .toFile(logo);
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function shot(index: number, overrides: Partial<ExportShot> = {}): ExportShot {
  const number = String(index + 1);
  return {
    id: `shot-${number}`,
    number,
    caption: `Caption of ${number}`,
    action: `Action of ${number}`,
    dialogue: `Hi from ${number}.`,
    notes: null,
    camera: 'Close-up · Low angle · Dolly / track',
    lensMm: 50,
    durationMs: 3500,
    picture: pictures[index % pictures.length] ?? null,
    video: null,
    voiceOver: null,
    ...overrides,
  };
}

function board(count: number, overrides: (index: number) => Partial<ExportShot> = () => ({})): ExportBoard {
  return {
    projectName: 'Moonrise',
    canvasTitle: 'Pitch canvas',
    boardTitle: 'Act One',
    revision: 4,
    date: '2024-05-01',
    aspect: 16 / 9,
    shots: Array.from({ length: count }, (_, index) => shot(index, overrides(index))),
    music: null,
  };
}

const options = (input: Partial<PdfBoardOptions> = {}): PdfBoardOptions => PdfBoardOptions.parse(input);
const quiet = () => {};

interface PageRead {
  /** The page's size in points: [x0, y0, x1, y1]. */
  view: number[];
  /** Each text item, as printed. */
  items: string[];
  /** The items joined by spaces. */
  text: string;
  /** The pixel sizes of the pictures painted on the page. */
  images: Array<{ width: number; height: number }>;
}

async function readPdf(bytes: Buffer): Promise<PageRead[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: PageRead[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const items = (await page.getTextContent()).items.flatMap((item) => ('str' in item ? [item.str] : []));
    const operators = await page.getOperatorList();
    const images = operators.fnArray.flatMap((fn, index) => {
      const args = operators.argsArray[index] as unknown[];
      return fn === OPS.paintImageXObject ? [{ width: Number(args[1]), height: Number(args[2]) }] : [];
    });
    pages.push({ view: page.view, items, text: items.join(' '), images });
  }
  await pdf.destroy();
  return pages;
}

describe('the PDF storyboard', () => {
  it("prints each shot's description with the default fields, above its action", async () => {
    const file = await pdfBoard(board(3), options(), null, quiet);
    const [page] = await readPdf(file.bytes);
    for (const number of ['1', '2', '3']) {
      expect(page!.text).toContain(`Caption of ${number}`);
      expect(page!.text.indexOf(`Caption of ${number}`)).toBeLessThan(page!.text.indexOf(`Action of ${number}`));
    }
  });

  it('prints 12 shots at 3 × 2 on two A4 landscape pages, each with its shots, the header and the page count', async () => {
    const progress: string[] = [];
    const file = await pdfBoard(board(12), options({ columns: 3, rows: 2 }), logo, (_, message) =>
      progress.push(message),
    );
    expect(file.contentType).toBe('application/pdf');
    expect(file.extension).toBe('pdf');
    expect(file.warnings).toEqual([]);
    const pages = await readPdf(file.bytes);
    expect(pages).toHaveLength(2);
    for (const [index, page] of pages.entries()) {
      expect(page.view).toEqual([0, 0, 841.89, 595.28]);
      const mine = Array.from({ length: 6 }, (_, n) => String(index * 6 + n + 1));
      const others = Array.from({ length: 6 }, (_, n) => String((1 - index) * 6 + n + 1));
      for (const number of mine) {
        expect(page.items).toContain(number);
        expect(page.text).toContain(`Hi from ${number}.`);
      }
      for (const number of others) {
        expect(page.items).not.toContain(number);
        expect(page.text).not.toContain(`Hi from ${number}.`);
      }
      for (const header of ['Moonrise', 'Act One — Pitch canvas', '2024-05-01', 'Revision 4'])
        expect(page.items).toContain(header);
      expect(page.items).toContain(`Page ${index + 1} of 2`);
      // Six pictures and the logo.
      expect(page.images).toHaveLength(7);
    }
    expect(progress).toContain('Page 2 of 2');
  }, 30_000);

  it('prints one shot a page at 1 × 1', async () => {
    const pages = await readPdf((await pdfBoard(board(3), options({ columns: 1, rows: 1 }), null, quiet)).bytes);
    expect(pages).toHaveLength(3);
    pages.forEach((page, index) => {
      expect(page.items).toContain(String(index + 1));
      expect(page.text).toContain(`Hi from ${index + 1}.`);
      expect(page.text).not.toContain(`Hi from ${((index + 1) % 3) + 1}.`);
      expect(page.images).toHaveLength(1);
      expect(page.items).toContain(`Page ${index + 1} of 3`);
    });
  }, 30_000);

  it.each([
    ['letter', 'portrait', [0, 0, 612, 792]],
    ['tabloid', 'portrait', [0, 0, 792, 1224]],
    ['tabloid', 'landscape', [0, 0, 1224, 792]],
    ['a4', 'portrait', [0, 0, 595.28, 841.89]],
  ] as const)('prints on %s paper, %s, at its size', async (paper, orientation, view) => {
    const pages = await readPdf((await pdfBoard(board(2), options({ paper, orientation }), null, quiet)).bytes);
    expect(pages.map((page) => page.view)).toEqual([view]);
  });

  it('prints Japanese, Russian and Greek dialogue with real glyphs: the text reads back the same', async () => {
    const dialogue = 'MIKA: 「行こう」 — Привет! Γειά σου.';
    const pages = await readPdf(
      (
        await pdfBoard(
          board(1, () => ({ dialogue })),
          options({ columns: 1, rows: 1 }),
          null,
          quiet,
        )
      ).bytes,
    );
    // A character printed with a font that lacks it reads back as U+0000 (its glyph is .notdef): only real glyphs,
    // mapped by the fonts' ToUnicode tables, give the text back.
    expect(pages[0]?.text).toContain('「行こう」');
    expect(pages[0]?.text).toContain('Привет!');
    expect(pages[0]?.text).toContain('Γειά σου.');
    expect(pages[0]?.text).not.toContain('\u0000');
  });

  it('splits text into runs by the font that has the glyphs, a combining accent staying with its letter', () => {
    expect(splitRuns('Привет 「行こう」!')).toEqual([
      { face: 'sans', text: 'Привет ' },
      { face: 'jp', text: '「行こう」' },
      { face: 'sans', text: '!' },
    ]);
    expect(splitRuns('行\u0301e\u0301')).toEqual([
      { face: 'jp', text: '行\u0301' },
      { face: 'sans', text: 'e\u0301' },
    ]);
    expect(existsSync(fontFile('regular'))).toBe(true);
    expect(path.basename(fontFile('bold'))).toBe('NotoSans-Bold.ttf');
  });

  it('prints "No picture" for a shot without one and names it in the warnings', async () => {
    const file = await pdfBoard(
      board(4, (index) => (index === 2 ? { picture: null } : {})),
      options({ columns: 2, rows: 2 }),
      null,
      quiet,
    );
    expect(file.warnings).toEqual(['Shot 3 has no picture']);
    const [page] = await readPdf(file.bytes);
    expect(page?.items.filter((item) => item === 'No picture')).toHaveLength(1);
    expect(page?.images).toHaveLength(3);
  });

  it('prints a placeholder for a picture or a logo it cannot read, and says so in the warnings', async () => {
    const broken = path.join(dir, 'broken.jpg');
    await writeFile(broken, 'not a picture');
    const file = await pdfBoard(
      board(2, (index) => (index === 1 ? { picture: broken } : {})),
      options({ columns: 2, rows: 1 }),
      broken,
      quiet,
    );
    expect(file.warnings).toEqual([
      'The logo could not be read as a picture; the pages have none.',
      "Shot 2's picture could not be read",
    ]);
    const [page] = await readPdf(file.bytes);
    expect(page?.items).toContain('Picture unreadable');
    expect(page?.images).toHaveLength(1);
  });

  it('cuts a field that does not fit with an ellipsis instead of running into the next panel', async () => {
    const action = `${'The long walk across the rooftop, step by step. '.repeat(30)}LAST-WORDS`;
    const [page] = await readPdf(
      (
        await pdfBoard(
          board(16, () => ({ action })),
          options({ columns: 4, rows: 4 }),
          null,
          quiet,
        )
      ).bytes,
    );
    expect(page?.text).toContain('…');
    expect(page?.text).not.toContain('LAST-WORDS');
    // Every field still has its line after the long action.
    expect(page?.text).toContain('Hi from 16.');
  });

  it('downscales a 6000 × 4000 photo: the PDF stays under 1 MB', async () => {
    expect((await stat(photo)).size).toBeGreaterThan(5_000_000);
    const file = await pdfBoard(
      board(1, () => ({ picture: photo })),
      options({ columns: 1, rows: 1 }),
      null,
      quiet,
    );
    expect(file.bytes.length).toBeLessThan(1_000_000);
    const [page] = await readPdf(file.bytes);
    expect(page?.images).toHaveLength(1);
    expect(Math.max(page?.images[0]?.width ?? 0, page?.images[0]?.height ?? 0)).toBeLessThanOrEqual(1600);
  }, 30_000);

  it('prints 200 shots at 4 × 4 on 13 pages', async () => {
    const progress: number[] = [];
    const file = await pdfBoard(board(200), options({ columns: 4, rows: 4 }), null, (percent) =>
      progress.push(percent),
    );
    const pages = await readPdf(file.bytes);
    expect(pages).toHaveLength(13);
    expect(pages[12]?.items).toContain('200');
    expect(pages[12]?.items).toContain('Page 13 of 13');
    expect(pages[12]?.images).toHaveLength(200 - 12 * 16);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(100);
  }, 60_000);

  it('gives the same bytes for the same board twice', async () => {
    const input = board(8, (index) => (index === 1 ? { dialogue: '「行こう」 Привет Γειά' } : {}));
    const first = await pdfBoard(input, options(), logo, quiet);
    const second = await pdfBoard(input, options(), logo, quiet);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    // At once too: timing must not order the file's objects (a logo's alpha channel once did).
    const together = await Promise.all([1, 2, 3].map(() => pdfBoard(input, options(), logo, quiet)));
    for (const each of together) expect(each.bytes.equals(first.bytes)).toBe(true);
  }, 30_000);
});

describe('the printable shot list', () => {
  it("holds every shot's number and repeats the header row on every page", async () => {
    const file = await shotListPdf(board(30), options(), quiet);
    expect(file.contentType).toBe('application/pdf');
    const pages = await readPdf(file.bytes);
    expect(pages.length).toBeGreaterThan(1);
    const numbers = pages.flatMap((page) => page.items);
    for (let number = 1; number <= 30; number++) expect(numbers).toContain(String(number));
    for (const [index, page] of pages.entries()) {
      for (const header of ['Shot', 'Picture', 'Camera', 'Lens', 'Duration', 'Action', 'Dialogue', 'Notes'])
        expect(page.items).toContain(header);
      expect(page.items).toContain('Moonrise');
      expect(page.items).toContain(`Page ${index + 1} of ${pages.length}`);
    }
    // A row is never split: each shot's number and its dialogue are on the same page.
    for (const page of pages)
      for (const item of page.items.filter((text) => /^\d+$/.test(text)))
        expect(page.text).toContain(`Hi from ${item}.`);
  }, 30_000);

  it('leaves the picture cell empty for a shot without one', async () => {
    const file = await shotListPdf(
      board(3, (index) => (index === 0 ? { picture: null } : {})),
      options(),
      quiet,
    );
    const [page] = await readPdf(file.bytes);
    expect(page?.images).toHaveLength(2);
    expect(page?.text).toContain('3.5 s');
    expect(page?.text).toContain('50 mm');
  });
});
