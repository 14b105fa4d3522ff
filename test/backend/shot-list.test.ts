import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOT_LIST_HEADERS } from '../../src/exports/shot-list.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';

/**
 * A board's shot list as a file, over real HTTP on both stores: CSV (UTF-8 with a BOM) and XLSX, read back by a
 * spreadsheet reader (exceljs), one row per shot in the board's order with its fields in words.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';

const BOARD = CanvasNode.parse({
  id: 'board',
  type: 'storyboardNode',
  position: { x: 0, y: 0 },
  data: {
    title: 'Spring Commercial',
    numbersLocked: true,
    frames: [
      {
        id: 's-open',
        imageUrl: null,
        number: '1',
        scene: '1',
        shotSize: 'EWS',
        angle: 'high',
        movement: 'crane',
        lensMm: 24,
        durationMs: 4000,
        caption: 'The bay at dawn',
        action: 'Fog lifts off the water, "slowly".',
        cast: [],
        location: 'Harbour',
        status: 'approved',
      },
      {
        id: 's-mara',
        imageUrl: null,
        number: '1A',
        scene: '1',
        shotSize: 'CU',
        lensMm: 85,
        durationMs: 2500,
        dialogue: '灯台はまだ光っている。',
        cast: ['Mara', 'Ode'],
        status: 'for_review',
        notes: 'Line 1, then line 2',
      },
    ],
  },
});

/** Shots as an agent often writes them: no numbers, one timed by its dialogue, one with nothing to time it. */
const UNNUMBERED = CanvasNode.parse({
  id: 'unnumbered',
  type: 'storyboardNode',
  position: { x: 0, y: 900 },
  data: {
    title: 'Tide',
    frames: [
      // 11 words at 2.6 a second, and half a second to breathe: 4.731 s, as the PDF, the EDL and the animatic time it.
      { id: 't-line', imageUrl: null, dialogue: 'We have to leave before the tide comes back in tonight' },
      { id: 't-still', imageUrl: null, action: 'The boat, empty.' },
    ],
  },
});

describe.each(STORE_TARGETS)('the shot list as a file: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let viewer: string;

    beforeAll(async () => {
      server = await startTestServer(target);
      const { projects, writes } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      const note = CanvasNode.parse({
        id: 'note',
        type: 'textAnnotationNode',
        position: { x: 0, y: 500 },
        data: { content: 'not a board' },
      });
      let revision = 0;
      for (const node of [BOARD, note, UNNUMBERED])
        revision = (
          await writes.createNode(
            { projectId: 'p', canvasId: 'c', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
            node,
          )
        ).revision;
      viewer = await projectToken(server.store, 'p', 'viewer');
    }, 60_000);
    afterAll(async () => server?.close());

    const download = (format: string, node = 'board') =>
      fetch(`${server.url}${CANVAS}/nodes/${node}/shot-list?format=${format}`, {
        headers: { authorization: `Bearer ${viewer}` },
      });

    it('writes XLSX with a header row and one row per shot in board order, fields in words', async () => {
      const response = await download('xlsx');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(response.headers.get('content-disposition')).toBe(
        "attachment; filename*=UTF-8''Spring%20Commercial%20shot%20list.xlsx",
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await response.arrayBuffer());
      const sheet = workbook.worksheets[0]!;
      expect(sheet.name).toBe('Spring Commercial');
      const rows = sheet.getSheetValues().slice(1) as unknown[][];
      expect(rows[0]!.slice(1)).toEqual(SHOT_LIST_HEADERS);
      const cell = (row: number, header: string) => rows[row]![SHOT_LIST_HEADERS.indexOf(header) + 1];
      expect([cell(1, 'Shot'), cell(2, 'Shot')]).toEqual(['1', '1A']);
      expect(cell(1, 'Shot size')).toBe('Extreme wide shot');
      expect(cell(1, 'Movement')).toBe('Crane / jib');
      expect(cell(1, 'Lens (mm)')).toBe(24);
      expect(cell(2, 'Duration (s)')).toBe(2.5);
      expect(cell(2, 'Dialogue')).toBe('灯台はまだ光っている。');
      expect(cell(2, 'Cast')).toBe('Mara, Ode');
      expect(cell(2, 'Status')).toBe('For review');
    });

    it('writes CSV in UTF-8 with a BOM, quoting what needs it', async () => {
      const response = await download('csv');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.subarray(3).toString('utf8').trim().split(/\r?\n/);
      expect(lines[0]).toBe(SHOT_LIST_HEADERS.join(','));
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain('"Fog lifts off the water, ""slowly""."');
      expect(lines[2]).toContain('灯台はまだ光っている。');
      expect(lines[2]!.startsWith('1A,1,Close-up,')).toBe(true);
    });

    it('numbers and times each shot as every other deliverable does: its place on the board, its dialogue read', async () => {
      for (const format of ['xlsx', 'csv'] as const) {
        const response = await download(format, 'unnumbered');
        expect(response.status).toBe(200);
        const workbook = new ExcelJS.Workbook();
        if (format === 'xlsx') await workbook.xlsx.load(await response.arrayBuffer());
        else await workbook.csv.read(Readable.from(Buffer.from(await response.arrayBuffer()).subarray(3)));
        const rows = workbook.worksheets[0]!.getSheetValues().slice(2) as unknown[][];
        const cell = (row: number, header: string) => String(rows[row]![SHOT_LIST_HEADERS.indexOf(header) + 1]);
        expect([cell(0, 'Shot'), cell(1, 'Shot')], format).toEqual(['1', '2']);
        expect([cell(0, 'Duration (s)'), cell(1, 'Duration (s)')], format).toEqual(['4.731', '3']);
      }
    });

    it('refuses a node that is not a storyboard, one that does not exist, and a format it does not write', async () => {
      const note = await download('csv', 'note');
      expect(note.status).toBe(400);
      expect(((await note.json()) as { error: { message: string } }).error.message).toContain(
        'a shot list is made from a storyboard',
      );
      expect((await download('csv', 'nope')).status).toBe(404);
      const pdf = await api(server.url, `${CANVAS}/nodes/board/shot-list?format=pdf`, { token: viewer });
      expect(pdf.status).toBe(400);
      expect(JSON.stringify(pdf.body)).toContain('format');
      expect((await fetch(`${server.url}${CANVAS}/nodes/board/shot-list`)).status).toBe(401);
    });
  });
});
