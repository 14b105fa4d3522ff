import ExcelJS from 'exceljs';
import { XMLParser } from 'fast-xml-parser';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CanvasEdge,
  CanvasNode,
  ExportList,
  ExportView,
  ShareLinkList,
  ShareLinkView,
  SharedBoardsView,
  UploadReceipt,
} from '../../src/contract/index.js';
import { readCredentials } from '../../src/provenance/c2pa-signer.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { probe } from '../support/media.js';
import { api, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { ffmpegFixture } from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';
import { IDP } from './world.js';

/**
 * Exports over real HTTP on both stores: a board of four shots (one without a picture, one whose dialogue is Japanese),
 * a voice-over on shot 2 and a music bed, exported as every kind the workers make. Each file is read back by a real
 * reader: pdfjs for the PDFs, ffprobe for the animatic, exceljs for the XLSX, an XML parser for FCP XML.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const SHOTS = [
  { id: 'shot-a', number: '1', durationMs: 1000, dialogue: 'We open on the harbour.' },
  { id: 'shot-b', number: '2', durationMs: 1500, dialogue: '「行こう」と彼女は言った。', shotSize: 'CU', lensMm: 50 },
  { id: 'shot-c', number: '2A', durationMs: 1250, action: 'The boat leaves.' },
  { id: 'shot-d', number: '3', durationMs: 1000, caption: 'No picture yet' },
];

async function colour(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 360, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string[] }> {
  const pdf = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const text: string[] = [];
  for (let page = 1; page <= pdf.numPages; page += 1) {
    const content = await (await pdf.getPage(page)).getTextContent();
    text.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return { pages: pdf.numPages, text };
}

describe.each(STORE_TARGETS)('exports: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let asEd: (request?: ApiRequest) => ApiRequest;
    let viewer: string;
    let editorToken: string;

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000, exportMaxMinutes: 1 });
      const { projects, writes } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
      asEd = await signedInPerson(server, { issuer: IDP, subject: 'ed' });
      viewer = await projectToken(server.store, 'p', 'viewer');
      editorToken = await projectToken(server.store, 'p', 'editor');

      const form = new FormData();
      const files: Array<[string, Buffer, string]> = [
        ['red.png', await colour(200, 30, 30), 'image/png'],
        ['green.png', await colour(30, 200, 30), 'image/png'],
        ['blue.png', await colour(30, 30, 200), 'image/png'],
        ['voice.wav', ffmpegFixture('wav', 1, 1000), 'audio/wav'],
        ['music.wav', ffmpegFixture('wav', 2, 200), 'audio/wav'],
      ];
      for (const [name, bytes, type] of files) form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
      const uploaded = await fetch(`${server.url}${CANVAS}/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editorToken}` },
        body: form,
      });
      const receipt = UploadReceipt.parse(await uploaded.json());
      const [red, green, blue, voice, music] = receipt.uploads.map((upload) => upload.url);

      const at = (revision: number) => ({
        projectId: 'p',
        canvasId: 'c',
        baseRevision: revision,
        clientSaveId: null,
        authorization: SYSTEM_WRITE,
      });
      const pictures = [red, green, blue, null];
      await writes.createNode(
        at(0),
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: {
            title: 'Harbour & Sea',
            aspectRatio: '16:9',
            frames: SHOTS.map((shot, index) => ({ ...shot, imageUrl: pictures[index] ?? null })),
          },
        }),
      );
      await writes.createNode(
        at(1),
        CanvasNode.parse({ id: 'vo', type: 'audioNode', position: { x: 0, y: 400 }, data: { audioUrl: voice } }),
      );
      await writes.createNode(
        at(2),
        CanvasNode.parse({ id: 'music', type: 'audioNode', position: { x: 300, y: 400 }, data: { audioUrl: music } }),
      );
      await writes.createNode(
        at(3),
        CanvasNode.parse({
          id: 'note',
          type: 'textAnnotationNode',
          position: { x: 600, y: 400 },
          data: { content: 'x' },
        }),
      );
      await writes.createEdge(
        at(4),
        CanvasEdge.parse({ id: 'e-vo', source: 'vo', target: 'board', data: { shotId: 'shot-b' } }),
      );
      await writes.createEdge(at(5), CanvasEdge.parse({ id: 'e-music', source: 'music', target: 'board' }));
    }, 60_000);
    afterAll(async () => server?.close());

    async function exported(body: unknown): Promise<{ view: ExportView; bytes: Buffer }> {
      const started = await api(server.url, `${CANVAS}/exports`, asEd({ method: 'POST', body }));
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const queued = ExportView.parse(started.body);
      const view = await waitFor(
        async () =>
          ExportView.parse((await api(server.url, `${CANVAS}/exports/${queued.export_id}`, { token: viewer })).body),
        (job) => job.status !== 'queued' && job.status !== 'running',
        120_000,
        100,
      );
      expect(view.status, JSON.stringify(view)).toBe('succeeded');
      const download = await fetch(`${server.url}${view.file!.url}`, {
        headers: { authorization: `Bearer ${viewer}` },
      });
      expect(download.status).toBe(200);
      return { view, bytes: Buffer.from(await download.arrayBuffer()) };
    }

    it('prints a PDF board with shot numbers and dialogue in any script, and names the shot without a picture', async () => {
      const { view, bytes } = await exported({
        kind: 'pdf_board',
        node_id: 'board',
        options: { columns: 2, rows: 1, fields: ['dialogue', 'action', 'camera'] },
      });
      expect(view).toMatchObject({ kind: 'pdf_board', revision: 6, created_by: 'ed', node_id: 'board' });
      expect(view.file).toMatchObject({ name: 'Harbour Sea storyboard.pdf', content_type: 'application/pdf' });
      expect(view.warnings.join(' ')).toMatch(/Shot 3/);
      const pdf = await pdfText(bytes);
      expect(pdf.pages).toBe(2);
      expect(pdf.text[0]).toContain('We open on the harbour.');
      expect(pdf.text[0]).toContain('「行こう」と彼女は言った。');
      expect(pdf.text[1]).toContain('2A');
      expect(pdf.text[1]).toContain('No picture');
    });

    it('makes the same PDF from the same revision and options', async () => {
      const body = { kind: 'pdf_board', node_id: 'board', options: { columns: 4, rows: 4 } };
      const first = await exported(body);
      const second = await exported(body);
      expect(second.view.export_id).not.toBe(first.view.export_id);
      // The same pages (the rendering itself is byte for byte the same: test/unit/pdf-sheets.test.ts). The files are not:
      // each carries its own content credentials, signed anew and naming its own export (docs/provenance.md).
      expect(await pdfText(second.bytes)).toEqual(await pdfText(first.bytes));
      for (const { view, bytes } of [first, second]) {
        const credentials = await readCredentials(bytes, 'application/pdf');
        expect(credentials?.state).toBe('Valid');
        expect(credentials?.manifest.assertions).toContainEqual(
          expect.objectContaining({
            label: 'com.canvas-mcp.export',
            data: expect.objectContaining({ export_id: view.export_id }),
          }),
        );
      }
    });

    it('encodes an animatic exactly as long as the board, H.264 and AAC at 720p, the voice on its shot', async () => {
      const { view, bytes } = await exported({
        kind: 'animatic',
        node_id: 'board',
        options: { resolution: '720p', frame_rate: '24', burn_in: true },
      });
      expect(view.file).toMatchObject({ name: 'Harbour Sea animatic.mp4', content_type: 'video/mp4' });
      const film = probe(bytes);
      const video = film.streams.find((stream) => stream.codec_type === 'video')!;
      const audio = film.streams.find((stream) => stream.codec_type === 'audio')!;
      expect(video).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
      expect(audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000' });
      // 1000 + 1500 + 1250 + 1000 ms at 24 fps: 24 + 36 + 30 + 24 frames.
      expect(Number((video as { nb_read_frames?: string }).nb_read_frames)).toBe(114);
      expect(film.durationSeconds).toBeCloseTo(114 / 24, 1);
    });

    it('writes the shot list as XLSX and an FCP XML whose cuts fall on the animatic’s frames', async () => {
      const sheet = await exported({ kind: 'shot_list_xlsx', node_id: 'board' });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(sheet.bytes as unknown as ArrayBuffer);
      const rows = workbook.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
      expect(rows.map((row) => row[1])).toEqual(['Shot', '1', '2', '2A', '3']);

      const xml = await exported({ kind: 'fcp_xml', node_id: 'board', options: { frame_rate: '25' } });
      const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml.bytes.toString('utf8')) as {
        xmeml: {
          sequence: {
            duration: number;
            media: { video: { track: { clipitem: Array<{ start: number; end: number; name: string }> } } };
          };
        };
      };
      const clips = parsed.xmeml.sequence.media.video.track.clipitem;
      expect(clips.map((clip) => [clip.start, clip.end])).toEqual([
        [0, 25],
        [25, 63],
        [63, 94],
        [94, 119],
      ]);
      expect(parsed.xmeml.sequence.duration).toBe(119);

      const otio = await exported({ kind: 'otio', node_id: 'board' });
      expect((JSON.parse(otio.bytes.toString('utf8')) as { OTIO_SCHEMA: string }).OTIO_SCHEMA).toBe('Timeline.1');
      const edl = await exported({ kind: 'edl', node_id: 'board' });
      expect(edl.bytes.toString('utf8')).toMatch(/^TITLE: Harbour & Sea/);
    });

    it('lists exports for every member with who made them from which revision', async () => {
      const listed = ExportList.parse((await api(server.url, `${CANVAS}/exports`, { token: viewer })).body);
      expect(listed.exports.length).toBeGreaterThan(0);
      expect(listed.exports.every((job) => job.created_by === 'ed' && job.revision === 6)).toBe(true);
    });

    it('refuses what it cannot export before a job starts, naming why', async () => {
      const notBoard = await api(
        server.url,
        `${CANVAS}/exports`,
        asEd({ method: 'POST', body: { kind: 'pdf_board', node_id: 'note' } }),
      );
      expect(notBoard.status).toBe(400);
      expect(notBoard.body).toMatchObject({ error: { details: { field: 'node_id' } } });
      const badOption = await api(
        server.url,
        `${CANVAS}/exports`,
        asEd({ method: 'POST', body: { kind: 'pdf_board', node_id: 'board', options: { columns: 9 } } }),
      );
      expect(badOption.status).toBe(400);
      expect(JSON.stringify(badOption.body)).toContain('options.columns');
      const byViewer = await api(server.url, `${CANVAS}/exports`, {
        token: viewer,
        method: 'POST',
        body: { kind: 'pdf_board', node_id: 'board' },
      });
      expect(byViewer.status).toBe(403);
    });

    it('shares a board on a link without an account, showing its shots and chosen downloads only, until revoked', async () => {
      await server.store.projects.addMember('p', { issuer: IDP, subject: 'boss' }, 'owner');
      const asOwner = await signedInPerson(server, { issuer: IDP, subject: 'boss' });
      const pdf = ExportList.parse((await api(server.url, `${CANVAS}/exports`, { token: viewer })).body).exports.find(
        (job) => job.kind === 'pdf_board' && job.status === 'succeeded',
      )!;
      const byEditor = await api(server.url, `${CANVAS}/share-links`, asEd({ method: 'POST', body: {} }));
      expect(byEditor.status).toBe(403);
      const badDownload = await api(
        server.url,
        `${CANVAS}/share-links`,
        asOwner({ method: 'POST', body: { node_id: 'board', downloads: ['export_nope'] } }),
      );
      expect(badDownload.status).toBe(400);
      expect(badDownload.body).toMatchObject({ error: { details: { field: 'downloads.0' } } });

      const made = await api(
        server.url,
        `${CANVAS}/share-links`,
        asOwner({ method: 'POST', body: { node_id: 'board', downloads: [pdf.export_id], expires_in_days: 2 } }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const link = ShareLinkView.parse(made.body);
      const secret = new URL(link.url!).pathname.split('/').at(-1)!;
      // Only the hash is kept: the list never shows the link again.
      const listed = ShareLinkList.parse((await api(server.url, `${CANVAS}/share-links`, asOwner())).body);
      expect(listed.links.map((each) => each.url)).toEqual([null]);

      const opened = await fetch(`${server.url}/api/v1/shared/${secret}`);
      expect(opened.status).toBe(200);
      expect(opened.headers.get('cache-control')).toBe('no-store');
      const shown = SharedBoardsView.parse(await opened.json());
      expect(shown.boards.map((board) => board.shots.map((shot) => shot.number))).toEqual([['1', '2', '2A', '3']]);
      expect(shown.downloads.map((download) => download.name)).toEqual(['Harbour Sea storyboard.pdf']);
      // Nothing that names people, runs, nodes or the project rides along.
      const text = JSON.stringify(shown);
      for (const hidden of ['ed', 'boss', 'project', 'vo', 'music', 'revision', 'run_'])
        expect(text.includes(`"${hidden}"`), hidden).toBe(false);
      const picture = await fetch(`${server.url}${shown.boards[0]!.shots[0]!.picture_url}`);
      expect(picture.status).toBe(200);
      const file = await fetch(`${server.url}${shown.downloads[0]!.url}`);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="Harbour Sea storyboard.pdf"');

      const revoked = await api(server.url, `${CANVAS}/share-links/${link.share_id}`, asOwner({ method: 'DELETE' }));
      expect(revoked.status).toBe(204);
      const after = await fetch(`${server.url}/api/v1/shared/${secret}`);
      expect(after.status).toBe(404);
      expect(await after.json()).toMatchObject({
        error: { message: 'This share link was revoked by its owner.', details: { reason: 'revoked' } },
      });
      const unknown = await fetch(`${server.url}/api/v1/shared/${'x'.repeat(32)}`);
      expect(await unknown.json()).toMatchObject({ error: { details: { reason: 'unknown' } } });
    });

    it('takes up a job whose worker died mid-way and finishes it', async () => {
      const listed = ExportList.parse((await api(server.url, `${CANVAS}/exports`, { token: viewer })).body);
      const earlier = listed.exports.find((job) => job.kind === 'edl')!;
      const source = await server.store.exports.source(earlier.export_id);
      // A worker claimed it and died: the job is running under a lease nobody renews any more.
      await server.store.driver.run(
        `INSERT INTO export_jobs (id, project_id, canvas_id, node_id, kind, options, source, revision, status, created_by,
           created_by_name, created_at, attempt, lease_owner, lease_expires_at)
         VALUES (?, 'p', 'c', 'board', 'edl', ?, ?, 6, 'running', 'ed', 'ed', ?, 1, 'a-worker-that-died', ?)`,
        ['export_revived', JSON.stringify({ frame_rate: '24' }), JSON.stringify(source), Date.now(), Date.now() - 1],
      );
      const revived = await waitFor(
        async () =>
          ExportView.parse((await api(server.url, `${CANVAS}/exports/export_revived`, { token: viewer })).body),
        (job) => job.status === 'succeeded',
        30_000,
        100,
      );
      expect(revived.file?.name).toBe('Harbour Sea.edl');
    });

    it('refuses an animatic longer than the server allows, and cancels a running one leaving no file', async () => {
      const { writes } = server.store;
      const long = Array.from({ length: 30 }, (_, index) => ({ id: `l${index}`, imageUrl: null, durationMs: 3000 }));
      await writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 6, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({ id: 'long', type: 'storyboardNode', position: { x: 0, y: 900 }, data: { frames: long } }),
      );
      const tooLong = await api(
        server.url,
        `${CANVAS}/exports`,
        asEd({ method: 'POST', body: { kind: 'animatic', node_id: 'long' } }),
      );
      expect(tooLong.status).toBe(400);
      expect(JSON.stringify(tooLong.body)).toMatch(/1\.5 minutes.*at most 1/);

      const half = Array.from({ length: 18 }, (_, index) => ({ id: `h${index}`, imageUrl: null, durationMs: 3000 }));
      await writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 7, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({ id: 'slow', type: 'storyboardNode', position: { x: 0, y: 1400 }, data: { frames: half } }),
      );
      const started = await api(
        server.url,
        `${CANVAS}/exports`,
        asEd({ method: 'POST', body: { kind: 'animatic', node_id: 'slow', options: { push_in: true } } }),
      );
      const job = ExportView.parse(started.body);
      await waitFor(
        async () => ExportView.parse((await api(server.url, `${CANVAS}/exports/${job.export_id}`, asEd())).body),
        (view) => view.status === 'running' && (view.progress.percent ?? 0) > 5,
        60_000,
        50,
      );
      const assetsBefore = (await server.store.assets.listAssets()).length;
      const cancelled = await api(server.url, `${CANVAS}/exports/${job.export_id}/cancel`, asEd({ method: 'POST' }));
      expect(cancelled.status).toBe(200);
      const done = await waitFor(
        async () => ExportView.parse((await api(server.url, `${CANVAS}/exports/${job.export_id}`, asEd())).body),
        (view) => view.status !== 'running',
        30_000,
        50,
      );
      expect(done).toMatchObject({ status: 'cancelled', file: null });
      expect((await server.store.assets.listAssets()).length).toBe(assetsBefore);
    });
  });
});

/**
 * Caps on exports under way (docs/security.md, "Storage and media bounds"): with no export workers, every job stays
 * queued, so each create counts. A person has at most --exports-per-person queued or running, a project at most
 * --exports-per-project; one more is refused with 429, naming the cap. Counted in the creating transaction, so a burst
 * of creates at once cannot pass it either.
 */
describe.each(STORE_TARGETS)('export caps: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    const people: Record<string, (request?: ApiRequest) => ApiRequest> = {};

    beforeAll(async () => {
      server = await startTestServer(target, { exportWorkers: 0, exportsPerPerson: 2, exportsPerProject: 3 });
      const { projects, writes } = server.store;
      await projects.createWorkspace('w');
      for (const project of ['p', 'burst']) {
        await projects.createProject(project, 'w');
        await projects.createCanvas(project, 'c', false);
        await writes.createNode(
          { projectId: project, canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
          CanvasNode.parse({
            id: 'board',
            type: 'storyboardNode',
            position: { x: 0, y: 0 },
            data: { frames: [{ id: 'one', imageUrl: null, durationMs: 1000 }] },
          }),
        );
      }
      for (const subject of ['ed', 'jo', 'quick']) {
        for (const project of ['p', 'burst']) await projects.addMember(project, { issuer: IDP, subject }, 'editor');
        people[subject] = await signedInPerson(server, { issuer: IDP, subject });
      }
    }, 60_000);
    afterAll(async () => server?.close());

    const start = (subject: string, project = 'p') =>
      api(
        server.url,
        `/api/v2/projects/${project}/canvases/c/exports`,
        people[subject]!({ method: 'POST', body: { kind: 'edl', node_id: 'board' } }),
      );

    it('refuses a person past --exports-per-person, then the project past --exports-per-project, until one ends', async () => {
      const mine = [await start('ed'), await start('ed')];
      expect(mine.map((answer) => answer.status)).toEqual([201, 201]);
      const third = await start('ed');
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBeTruthy();
      expect(third.body).toMatchObject({
        error: { code: 'rate_limited', details: { scope: 'person', active: 2, limit: 2 } },
      });
      expect((third.body as { error: { message: string } }).error.message).toContain(
        'You have 2 exports queued or running, the most this server takes at once (2: --exports-per-person, CANVAS_MCP_EXPORTS_PER_PERSON)',
      );

      expect((await start('jo')).status).toBe(201);
      const fourth = await start('jo');
      expect(fourth.status).toBe(429);
      expect(fourth.body).toMatchObject({ error: { details: { scope: 'project', active: 3, limit: 3 } } });
      expect((fourth.body as { error: { message: string } }).error.message).toContain('--exports-per-project');

      // A cancelled export no longer counts.
      const first = ExportView.parse(mine[0]!.body);
      const cancel = await api(
        server.url,
        `/api/v2/projects/p/canvases/c/exports/${first.export_id}/cancel`,
        people.ed!({ method: 'POST' }),
      );
      expect(ExportView.parse(cancel.body).status).toBe('cancelled');
      expect((await start('ed')).status).toBe(201);
    });

    it('lets no more than --exports-per-person of a burst of creates at once through', async () => {
      const answers = await Promise.all(Array.from({ length: 5 }, () => start('quick', 'burst')));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 429, 429, 429]);
      const listed = ExportList.parse(
        (await api(server.url, '/api/v2/projects/burst/canvases/c/exports', people.quick!())).body,
      );
      expect(listed.exports.filter((job) => job.status === 'queued')).toHaveLength(2);
    });
  });
});
