import { XMLParser } from 'fast-xml-parser';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, ExportView, ThreadView } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { api, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';
import { IDP } from './world.js';

/**
 * Review notes leave with the cut (docs/deliverables.md, "Markers and notes pages"), over real HTTP on both stores:
 * comments posted through the review routes, the board exported through the export route and its workers, each file
 * read back by a reader of its kind. An open thread is a marker at its frame (and a line on the PDF's notes pages); a
 * resolved one is in neither; `markers: false` leaves them all out.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
// At 24 fps shot 1 plays frames 0–95, shot 2 frames 96–167, shot 3 frames 168–215.
const SHOTS = [
  { id: 'shot-a', number: '1', durationMs: 4000, imageUrl: null },
  { id: 'shot-b', number: '2', durationMs: 3000, imageUrl: null },
  { id: 'shot-c', number: '3', durationMs: 2000, imageUrl: null },
];

interface XmemlMarker {
  name: string;
  comment: string;
  in: string;
  out: string;
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  isArray: (name) => ['clipitem', 'marker', 'asset-clip'].includes(name),
});

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const text: string[] = [];
  for (let page = 1; page <= pdf.numPages; page += 1) {
    const content = await (await pdf.getPage(page)).getTextContent();
    text.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await pdf.destroy();
  return text.join('\n');
}

describe.each(STORE_TARGETS)('review notes in exports: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let asEd: (request?: ApiRequest) => ApiRequest;
    let viewer: string;

    const post = async (body: Record<string, unknown>) => {
      const answer = await api(
        server.url,
        `${CANVAS}/threads`,
        asEd({ method: 'POST', body: { node_id: 'board', ...body } }),
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return ThreadView.parse(answer.body);
    };

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000 });
      const { projects, writes } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
      asEd = await signedInPerson(server, { issuer: IDP, subject: 'ed' });
      viewer = await projectToken(server.store, 'p', 'viewer');
      await writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: { title: 'Harbour', aspectRatio: '16:9', frames: SHOTS },
        }),
      );
      // 00:00:04:12 to 00:00:05:03 at 24 fps, shared with the client.
      await post({
        shot_id: 'shot-b',
        anchor: { on: 'animatic', frame: 108, frame_out: 123, rate: '24' },
        body: 'The boat leaves too soon.',
        audience: 'client',
      });
      await post({ anchor: { on: 'animatic', frame: 170, rate: '24' }, body: 'The cut to 3 is late by a beat.' });
      await post({ shot_id: 'shot-c', body: `Mind </marker><x>this</x> & "that" 'here'` });
      const done = await post({ shot_id: 'shot-a', body: 'Already fixed: wider.' });
      const resolved = await api(
        server.url,
        `${CANVAS}/threads/${done.thread_id}`,
        asEd({ method: 'PATCH', body: { status: 'resolved' } }),
      );
      expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    }, 60_000);
    afterAll(async () => server?.close());

    async function exported(body: unknown): Promise<{ view: ExportView; text: string; bytes: Buffer }> {
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
      const bytes = Buffer.from(await download.arrayBuffer());
      return { view, text: bytes.toString('utf8'), bytes };
    }

    it('writes the open notes as FCP 7 XML markers at their frames, and not the resolved one', async () => {
      const { view, text } = await exported({ kind: 'fcp_xml', node_id: 'board' });
      expect(view.options).toEqual({ frame_rate: '24', markers: true });
      const sequence = (
        xml.parse(text) as {
          xmeml: {
            sequence: {
              marker?: XmemlMarker[];
              media: {
                video: {
                  track: { clipitem: Array<{ name: string; start: string; in: string; marker?: XmemlMarker[] }> };
                };
              };
            };
          };
        }
      ).xmeml.sequence;
      const clips = sequence.media.video.track.clipitem;
      const shot2 = clips.find((clip) => clip.name === 'Shot 2')!;
      expect(shot2.marker).toEqual([
        { name: 'ed: The boat leaves too soon.', comment: 'ed: The boat leaves too soon.', in: '108', out: '124' },
      ]);
      // In the clip's source frames, which are the sequence's: its in (96) is its start (96).
      expect(Number(shot2.start) + Number(shot2.marker![0]!.in) - Number(shot2.in)).toBe(108);
      expect(sequence.marker?.map((marker) => [marker.name, marker.in])).toEqual([
        ['ed: The cut to 3 is late by a beat.', '170'],
      ]);
      expect(clips.find((clip) => clip.name === 'Shot 3')!.marker![0]!.name).toBe(
        `ed: Mind </marker><x>this</x> & "that" 'here'`,
      );
      expect(clips.find((clip) => clip.name === 'Shot 1')!.marker).toBeUndefined();
      expect(text).not.toContain('Already fixed');
    });

    it('writes them in OTIO, FCPXML and the EDL too, the resolved one in none', async () => {
      const otio = await exported({ kind: 'otio', node_id: 'board' });
      const timeline = JSON.parse(otio.text) as {
        tracks: {
          children: Array<{
            kind: string;
            markers: Array<{ name: string; metadata: Record<string, Record<string, string>> }>;
            children: Array<{
              name: string;
              markers: Array<{ name: string; marked_range: { start_time: { value: number } } }>;
            }>;
          }>;
        };
      };
      const video = timeline.tracks.children.find((track) => track.kind === 'Video')!;
      expect(
        video.children.find((clip) => clip.name === 'Shot 2')!.markers.map((m) => m.marked_range.start_time.value),
      ).toEqual([108]);
      expect(video.markers.map((marker) => marker.metadata['canvas-mcp']!.audience)).toEqual(['team']);
      expect(otio.text).not.toContain('Already fixed');

      const fcpxml = await exported({ kind: 'fcpxml', node_id: 'board' });
      const spine = (
        xml.parse(fcpxml.text) as {
          fcpxml: {
            library: {
              event: {
                project: {
                  sequence: { spine: { 'asset-clip': Array<{ name: string; marker?: Array<{ value: string }> }> } };
                };
              };
            };
          };
        }
      ).fcpxml.library.event.project.sequence.spine['asset-clip'];
      expect(spine.map((clip) => (clip.marker ?? []).length)).toEqual([0, 1, 2]);
      expect(fcpxml.text).not.toContain('Already fixed');

      const edl = await exported({ kind: 'edl', node_id: 'board' });
      const locs = edl.text.split('\r\n').filter((line) => /^\* LOC: /.test(line));
      expect(locs).toEqual([
        '* LOC: 01:00:04:12 RED ed: The boat leaves too soon.',
        `* LOC: 01:00:07:00 RED ed: Mind </marker><x>this</x> & "that" 'here'`,
        '* LOC: 01:00:07:02 RED ed: The cut to 3 is late by a beat.',
      ]);
    });

    it('leaves the markers out when the export says markers: false', async () => {
      const { view, text } = await exported({ kind: 'fcp_xml', node_id: 'board', options: { markers: false } });
      expect(view.options).toEqual({ frame_rate: '24', markers: false });
      expect(text).not.toContain('<marker>');
      const edl = await exported({ kind: 'edl', node_id: 'board', options: { markers: false } });
      expect(edl.text).not.toContain('LOC');
    });

    it('prints the open notes on the PDF storyboard’s notes pages when asked, and not the resolved one', async () => {
      const { bytes } = await exported({ kind: 'pdf_board', node_id: 'board', options: { notes_pages: true } });
      const text = (await pdfText(bytes)).replace(/\s+/g, '');
      for (const open of ['Shot2—notes', 'Theboatleavestoosoon.', 'sharedwiththeclient', 'Thecutto3islatebyabeat.'])
        expect(text).toContain(open);
      expect(text).not.toContain('Alreadyfixed');
      const plain = await exported({ kind: 'pdf_board', node_id: 'board' });
      expect((await pdfText(plain.bytes)).replace(/\s+/g, '')).not.toContain('Theboatleavestoosoon.');
    });

    it('refuses notes pages on the shot list’s PDF, which has none', async () => {
      const answer = await api(
        server.url,
        `${CANVAS}/exports`,
        asEd({ method: 'POST', body: { kind: 'shot_list_pdf', node_id: 'board', options: { notes_pages: true } } }),
      );
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body)).toContain('notes_pages');
    });
  });
});
