import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfBoardOptions } from '../../src/contract/exports.js';
import { openThread } from '../support/review-threads.js';
import type { ExportBoard, ExportShot } from '../../src/exports/export-board.js';
import { pdfBoard } from '../../src/exports/pdf/pdf-board.js';

/**
 * The PDF storyboard's notes pages (`notes_pages`; src/exports/pdf/notes-pages.ts): a page for the board's own open
 * threads and one for each shot with open threads, read back with pdfjs: what each says, that a long thread continues
 * on a page of its own rather than running off the paper, and that every word lies inside the page's content box.
 */

let dir = '';
let picture = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pdf-notes-'));
  picture = path.join(dir, 'shot.png');
  await sharp({ create: { width: 640, height: 360, channels: 3, background: '#2980b9' } })
    .png()
    .toFile(picture);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function shot(number: string, overrides: Partial<ExportShot> = {}): ExportShot {
  return {
    id: `shot-${number}`,
    number,
    caption: `Caption of ${number}`,
    action: null,
    dialogue: null,
    notes: null,
    camera: null,
    lensMm: null,
    durationMs: 4000,
    picture,
    video: null,
    voiceOver: null,
    ...overrides,
  };
}

/** A paragraph long enough to need many lines: the long thread below fills more than a page. */
const PARAGRAPH = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');

function board(): ExportBoard {
  return {
    projectName: 'Moonrise',
    canvasTitle: 'Pitch canvas',
    boardTitle: 'Act One',
    revision: 4,
    date: '2024-05-01',
    aspect: 16 / 9,
    shots: [shot('1'), shot('2', { picture: null }), shot('3')],
    music: null,
    notes: [
      openThread(
        'shot-2',
        { on: 'animatic', frame: 108, frame_out: 123, rate: '24' },
        [['Guest: Kim', 'The boat leaves too soon.']],
        'client',
      ),
      openThread(null, { on: 'animatic', frame: 170, rate: '24' }, [['ana', 'The cut to 3 is late by a beat.']]),
      openThread(
        'shot-1',
        null,
        Array.from({ length: 12 }, (_, index): [string, string] => [
          index % 2 ? 'ben' : 'ana',
          `Reply ${index + 1}: ${PARAGRAPH}`,
        ]),
      ),
    ],
  };
}

interface PageRead {
  view: number[];
  text: string;
  /** Each text item's box in PDF points (x from the left, y of its baseline from the bottom). */
  items: Array<{ str: string; x: number; y: number; width: number }>;
  images: number;
}

async function readPdf(bytes: Buffer): Promise<PageRead[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: PageRead[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const items = (await page.getTextContent()).items.flatMap((item) =>
      'str' in item
        ? [{ str: item.str, x: item.transform[4] as number, y: item.transform[5] as number, width: item.width }]
        : [],
    );
    const operators = await page.getOperatorList();
    pages.push({
      view: page.view,
      text: items.map((item) => item.str).join(' '),
      items,
      images: operators.fnArray.filter((fn) => fn === OPS.paintImageXObject).length,
    });
  }
  await pdf.destroy();
  return pages;
}

/** Text compared without its spaces: a line printed in runs of two fonts reads back as several items. */
const squeezed = (text: string) => text.replace(/\s+/g, '');
const says = (page: PageRead | undefined, text: string) => squeezed(page?.text ?? '').includes(squeezed(text));

describe('the PDF storyboard’s notes pages', () => {
  it('adds a page of open notes for the board and for each shot with notes, saying who, when, where and what', async () => {
    const file = await pdfBoard(
      board(),
      PdfBoardOptions.parse({ columns: 3, rows: 1, notes_pages: true }),
      null,
      () => {},
    );
    const pages = await readPdf(file.bytes);
    const titled = (title: string) => pages.filter((page) => says(page, title));
    expect(pages.length).toBeGreaterThanOrEqual(5);
    expect(says(pages.at(-1), `Page ${pages.length} of ${pages.length}`)).toBe(true);

    const [boardPage] = titled('The board — notes');
    expect(says(boardPage, 'At 00:00:07:02 (24 fps) of the animatic')).toBe(true);
    expect(says(boardPage, 'The cut to 3 is late by a beat.')).toBe(true);

    const [shot2] = titled('Shot 2 — notes');
    expect(says(shot2, 'At 00:00:04:12 → 00:00:05:03 (24 fps) of the animatic · shared with the client')).toBe(true);
    expect(says(shot2, 'Guest: Kim · 2024-05-01 10:01 UTC')).toBe(true);
    expect(says(shot2, 'The boat leaves too soon.')).toBe(true);
    expect(says(shot2, 'Caption of 2')).toBe(true);
    // Shot 2 has no picture: its page shows none.
    expect(shot2!.images).toBe(0);

    // Shot 1's long thread continues on further pages, its picture on the first of them only, every reply printed.
    const shot1 = titled('Shot 1 — notes');
    expect(shot1.length).toBeGreaterThanOrEqual(2);
    expect(says(shot1[0], 'On the shot')).toBe(true);
    expect(shot1[0]!.images).toBe(1);
    expect(shot1.slice(1).every((page) => says(page, 'Shot 1 — notes (continued)') && page.images === 0)).toBe(true);
    const all = shot1.map((page) => page.text).join(' ');
    for (let reply = 1; reply <= 12; reply++) expect(says({ ...shot1[0]!, text: all }, `Reply ${reply}:`)).toBe(true);
    expect(squeezed(all)).toContain(squeezed(`word59`));

    expect(titled('Shot 3 — notes')).toEqual([]);
    // Every word of every notes page inside the content box (page-frame.ts): within the 28 pt margins, its baseline
    // under the header (72 pt from the top) and over the footer (48 pt from the bottom), the page frame's own words
    // aside.
    const frameWords = new Set(['Moonrise', 'Act One — Pitch canvas', '2024-05-01', 'Revision 4', 'Storyboard']);
    for (const page of pages.slice(1)) {
      const [, , width, height] = page.view as [number, number, number, number];
      const words = page.items.filter(
        (each) => each.str.trim() && !frameWords.has(each.str) && !/^Page \d+ of \d+$/.test(each.str),
      );
      expect(words.length).toBeGreaterThan(3);
      for (const item of words) {
        expect(item.x, item.str).toBeGreaterThanOrEqual(28 - 0.5);
        expect(item.x + item.width, item.str).toBeLessThanOrEqual(width - 28 + 0.5);
        expect(item.y, item.str).toBeGreaterThanOrEqual(48);
        expect(item.y, item.str).toBeLessThanOrEqual(height - 72);
      }
    }
  });

  it('prints no notes page unless asked, nor for a board without open notes', async () => {
    const without = await readPdf(
      (await pdfBoard(board(), PdfBoardOptions.parse({ columns: 3, rows: 1 }), null, () => {})).bytes,
    );
    expect(without).toHaveLength(1);
    expect(without.some((page) => says(page, '— notes'))).toBe(false);
    const noNotes = await readPdf(
      (
        await pdfBoard(
          { ...board(), notes: [] },
          PdfBoardOptions.parse({ columns: 3, rows: 1, notes_pages: true }),
          null,
          () => {},
        )
      ).bytes,
    );
    expect(noNotes).toHaveLength(1);
  });
});
