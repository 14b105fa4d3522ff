import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, ConformReport, ExportView, type CanvasLayout } from '../../src/contract/index.js';
import { cutFrames } from '../../src/exports/timeline/frame-rate.js';
import { readTimeline } from '../../src/exports/timeline/read-timeline.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { readLayout, signedInPerson } from '../support/canvas-reads.js';
import { rawRequest } from '../support/raw-http.js';
import { api, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { editEdl, editFcpXml } from '../support/timeline-edits.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';
import { IDP } from './world.js';

/**
 * Conform over real HTTP on both stores: a board of ten shots exported as FCP 7 XML; the XML edited as an editor
 * would (shot 4 trimmed by a frame, shots 6 and 7 swapped, shot 9 dropped: every clip after an edit rippling up); the
 * board conformed to it in one revision whose report names exactly those three changes. The same file again, or the
 * conformed board's own export, changes nothing, review notes written as markers included. FCPXML and the .otioz
 * bundle are exported beside it.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
/** Whole frames at 24 fps (2 s is 48 frames, 1.5 s 36), so the cut's frames are the board's durations exactly. */
const DURATIONS = [2000, 1500, 2500, 2000, 1000, 3000, 1500, 2000, 2500, 1000];
const SHOTS = DURATIONS.map((durationMs, index) => ({
  id: `shot-${String.fromCharCode(97 + index)}`,
  imageUrl: null,
  number: String(index + 1),
  durationMs,
  caption: `Shot ${index + 1}'s description`,
}));

interface Shot {
  id: string;
  number: string;
  durationMs?: number;
  status?: string;
  caption?: string;
}

describe.each(STORE_TARGETS)('conform: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let asEd: (request?: ApiRequest) => ApiRequest;
    let viewer: string;

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000 });
      const { projects, writes } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
      asEd = await signedInPerson(server, { issuer: IDP, subject: 'ed' });
      viewer = await projectToken(server.store, 'p', 'viewer');
      const at = (revision: number) => ({
        projectId: 'p',
        canvasId: 'c',
        baseRevision: revision,
        clientSaveId: null,
        authorization: SYSTEM_WRITE,
      });
      await writes.createNode(
        at(0),
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: { title: 'Harbour', aspectRatio: '16:9', frames: SHOTS },
        }),
      );
      await writes.createNode(
        at(1),
        CanvasNode.parse({
          id: 'note',
          type: 'textAnnotationNode',
          position: { x: 0, y: 600 },
          data: { content: 'x' },
        }),
      );
    }, 60_000);
    afterAll(async () => server?.close());

    const layout = (): Promise<CanvasLayout> => readLayout(server, 'p', 'c', viewer);
    const shots = async () =>
      ((await layout()).nodes.find((node) => node.id === 'board')!.data as { frames: Shot[] }).frames;

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
      return { view, bytes: Buffer.from(await download.arrayBuffer()) };
    }
    const conform = (body: Record<string, unknown>, request: ApiRequest = asEd()) =>
      api(server.url, `${CANVAS}/conform`, { ...request, method: 'POST', body });

    let editedXml = '';

    it("conforms the board to the editor's FCP 7 XML in one revision, reporting exactly the trim, the swap and the drop", async () => {
      const { bytes } = await exported({ kind: 'fcp_xml', node_id: 'board' });
      // In the editor: shot 4 one frame shorter, shot 7 before shot 6, shot 9 lifted out; the rest ripples.
      editedXml = editFcpXml(bytes.toString('utf8'), [{ trim: 3, by: 1 }, { swap: [5, 6] }, { drop: 8 }]);
      const before = (await layout()).revision;
      const answer = await conform({
        base_revision: before,
        node_id: 'board',
        file_name: 'Harbour.xml',
        text: editedXml,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const report = ConformReport.parse(answer.body);
      expect(report).toEqual({
        revision: before + 1,
        node_id: 'board',
        format: 'fcp_xml',
        frame_rate: '24',
        clips: 9,
        durations: [{ shot_id: 'shot-d', number: '4', from_ms: 2000, to_ms: 1958, from_frames: 48, to_frames: 47 }],
        moved: [{ shot_id: 'shot-g', number: '7', from_position: 7, to_position: 6 }],
        omitted: [{ shot_id: 'shot-i', number: '9' }],
        restored: [],
        added: [],
        notes: [],
      });
      expect((await layout()).revision).toBe(before + 1);
      const after = await shots();
      expect(after.map((shot) => shot.number)).toEqual(['1', '2', '3', '4', '5', '7', '6', '8', '9', '10']);
      // Dropped means omitted, never deleted: shot 9 keeps its place, its words and its duration.
      expect(after.find((shot) => shot.id === 'shot-i')).toMatchObject({
        status: 'omitted',
        durationMs: 2500,
        caption: "Shot 9's description",
      });
      expect(after.filter((shot) => shot.status === 'omitted')).toHaveLength(1);
      // Shot 4's new duration gives back exactly 47 frames through the exports' arithmetic.
      expect(cutFrames([after[3]!.durationMs!], '24')[0]!.frames).toBe(47);
    });

    it('changes nothing when the same timeline comes back again: no revision, an empty report', async () => {
      const before = (await layout()).revision;
      const answer = await conform({
        base_revision: before,
        node_id: 'board',
        file_name: 'Harbour.xml',
        text: editedXml,
      });
      expect(answer.status).toBe(200);
      expect(ConformReport.parse(answer.body)).toMatchObject({
        revision: null,
        durations: [],
        moved: [],
        omitted: [],
        restored: [],
        added: [],
      });
      expect((await layout()).revision).toBe(before);
    });

    it("exports the conformed cut as the editor's, the omitted shot left out with a warning; importing it changes nothing", async () => {
      const { view, bytes } = await exported({ kind: 'fcp_xml', node_id: 'board' });
      expect(view.warnings).toEqual(['Shot 9 is omitted: it is left out of the cut.']);
      const exportedCut = readTimeline(bytes.toString('utf8'));
      const edited = readTimeline(editedXml);
      expect(exportedCut.clips.map((clip) => [clip.shotNumber, clip.frames])).toEqual(
        edited.clips.map((clip) => [clip.shotNumber, clip.frames]),
      );
      const before = (await layout()).revision;
      const answer = await conform({
        base_revision: before,
        node_id: 'board',
        file_name: 'Harbour.xml',
        text: bytes.toString('utf8'),
      });
      expect(ConformReport.parse(answer.body).revision).toBeNull();
    });

    it('reads a one-frame trim in an EDL at 29.97 drop frame exactly', async () => {
      const { bytes } = await exported({ kind: 'edl', node_id: 'board', options: { frame_rate: '29.97' } });
      const played = (await shots()).filter((shot) => shot.status !== 'omitted');
      const frames = cutFrames(
        played.map((shot) => shot.durationMs!),
        '29.97',
      );
      const edl = editEdl(bytes.toString('utf8'), [{ trim: 1, by: 1 }], '29.97');
      const before = (await layout()).revision;
      const answer = await conform({ base_revision: before, node_id: 'board', file_name: 'Harbour.edl', text: edl });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const report = ConformReport.parse(answer.body);
      expect(report).toMatchObject({
        revision: before + 1,
        format: 'edl',
        frame_rate: '29.97',
        moved: [],
        omitted: [],
      });
      expect(report.durations).toEqual([
        expect.objectContaining({
          shot_id: 'shot-b',
          from_frames: frames[1]!.frames,
          to_frames: frames[1]!.frames - 1,
        }),
      ]);
      const now = (await shots()).filter((shot) => shot.status !== 'omitted');
      expect(
        cutFrames(
          now.map((shot) => shot.durationMs!),
          '29.97',
        ).map((shot) => shot.frames),
      ).toEqual(frames.map((shot, index) => shot.frames - (index === 1 ? 1 : 0)));
    });

    it('exports FCPXML 1.10 beside FCP 7 XML, and an .otioz bundle with the animatic inside', async () => {
      const fcpxml = await exported({ kind: 'fcpxml', node_id: 'board', options: { frame_rate: '23.976' } });
      expect(fcpxml.view.file).toMatchObject({ name: 'Harbour.fcpxml', content_type: 'application/xml' });
      const text = fcpxml.bytes.toString('utf8');
      expect(text).toContain('<fcpxml version="1.10">');
      const read = readTimeline(text);
      expect(read).toMatchObject({ format: 'fcpxml', rate: '23.976' });
      expect(read.clips).toHaveLength(9);
      // Conformed from its own FCPXML: nothing changes.
      const before = (await layout()).revision;
      const again = await conform({ base_revision: before, node_id: 'board', file_name: 'Harbour.fcpxml', text });
      expect(ConformReport.parse(again.body).revision).toBeNull();

      const bundle = await exported({ kind: 'otioz', node_id: 'board' });
      expect(bundle.view.file).toMatchObject({ name: 'Harbour.otioz', content_type: 'application/zip' });
      const files = unzipSync(new Uint8Array(bundle.bytes));
      expect(Object.keys(files)).toEqual(
        expect.arrayContaining(['content.otio', 'version.txt', 'media/Harbour animatic.mp4']),
      );
      expect(Buffer.from(files['media/Harbour animatic.mp4']!).subarray(4, 8).toString('latin1')).toBe('ftyp');
      const content = readTimeline(new TextDecoder().decode(files['content.otio']));
      expect(content.clips.map((clip) => clip.shotId)).toEqual(
        (await shots()).filter((s) => s.status !== 'omitted').map((s) => s.id),
      );
    }, 120_000);

    it('changes nothing when a timeline carrying open review notes as markers comes back unedited', async () => {
      for (const body of [
        {
          shot_id: 'shot-b',
          anchor: { on: 'animatic', frame: 60, frame_out: 70, rate: '24' },
          body: 'Later </marker>.',
        },
        { anchor: { on: 'animatic', frame: 30, rate: '24' }, body: 'A note on the animatic.' },
      ]) {
        const posted = await api(
          server.url,
          `${CANVAS}/threads`,
          asEd({ method: 'POST', body: { node_id: 'board', ...body } }),
        );
        expect(posted.status, JSON.stringify(posted.body)).toBe(201);
      }
      const files: Array<[string, string, RegExp]> = [
        ['fcp_xml', 'Harbour.xml', /<marker>/],
        ['fcpxml', 'Harbour.fcpxml', /<marker /],
        ['otio', 'Harbour.otio', /"Marker\.2"/],
        ['edl', 'Harbour.edl', /^\* LOC: /m],
      ];
      for (const [kind, fileName, marker] of files) {
        const { bytes } = await exported({ kind, node_id: 'board' });
        const text = bytes.toString('utf8');
        expect(text, kind).toMatch(marker);
        const before = (await layout()).revision;
        const answer = await conform({ base_revision: before, node_id: 'board', file_name: fileName, text });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(ConformReport.parse(answer.body), kind).toMatchObject({
          revision: null,
          durations: [],
          moved: [],
          omitted: [],
          restored: [],
          added: [],
          notes: [],
        });
        expect((await layout()).revision).toBe(before);
      }
    });

    it('refuses a file that is not a timeline, or names no shot of the board, with the reason', async () => {
      const revision = (await layout()).revision;
      const notTimeline = await conform({
        base_revision: revision,
        node_id: 'board',
        file_name: 'notes.txt',
        text: 'Hello.',
      });
      expect(notTimeline.status).toBe(400);
      expect(JSON.stringify(notTimeline.body)).toMatch(/notes\.txt: The file is not a timeline/);
      const svg = await conform({ base_revision: revision, node_id: 'board', file_name: 'x.xml', text: '<svg/>' });
      expect(svg.status).toBe(400);
      expect(JSON.stringify(svg.body)).toMatch(/root is <svg>/);
      const stranger = editedXml.replaceAll(/<name>Shot (\d+)<\/name>/g, '<name>Pickup $1</name>');
      const none = await conform({ base_revision: revision, node_id: 'board', file_name: 'x.xml', text: stranger });
      expect(none.status).toBe(400);
      expect(JSON.stringify(none.body)).toMatch(/names a shot of this board/);
      const notBoard = await conform({ base_revision: revision, node_id: 'note', file_name: 'x.xml', text: editedXml });
      expect(notBoard.status).toBe(400);
      const missing = await conform({
        base_revision: revision,
        node_id: 'nothing',
        file_name: 'x.xml',
        text: editedXml,
      });
      expect(missing.status).toBe(404);
      const tooLong = await conform({
        base_revision: revision,
        node_id: 'board',
        file_name: 'x.xml',
        text: 'x'.repeat(6_000_001),
      });
      expect(tooLong.status).toBe(400);
      expect(JSON.stringify(tooLong.body)).toMatch(/text/);
      // The body's announced length is refused before a byte of it is read. Only the length is sent: a real 9 MB body
      // refused mid-send makes the server close a socket with unread data, whose reset can beat the answer to the client.
      const huge = await rawRequest(`${server.url}${CANVAS}/conform`, {
        method: 'POST',
        headers: {
          ...(asEd().headers as Record<string, string>),
          'content-type': 'application/json',
          'content-length': 9_000_000,
        },
        body: '{',
      });
      expect(huge.status).toBe(413);
      // A board that moved on since base_revision is not overwritten with a plan made from an older one.
      const stale = await conform({ base_revision: 1, node_id: 'board', file_name: 'x.xml', text: editedXml });
      expect(stale.status, JSON.stringify(stale.body)).toBe(409);
      const asViewer = await conform(
        { base_revision: revision, node_id: 'board', file_name: 'x.xml', text: editedXml },
        { token: viewer },
      );
      expect(asViewer.status).toBe(403);
      expect((await layout()).revision).toBe(revision);
    });
  });
});
