import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ScriptImportReceipt,
  SNAPSHOT_CONTRACT_VERSION,
  type CanvasLayout,
  type Screenplay,
} from '../../src/contract/index.js';
import { api, type ApiRequest, type TestServer } from '../support/servers.js';
import { editorStage } from '../support/editor-stage.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Script import over real HTTP on both stores, with Fountain and Final Draft fixtures written for the tests (a short
 * script, a revision of it): scenes become a board of numbered shots bound to their lines, in one revision; a revised
 * script reports exactly what changed, keeps every shot and its work, adds a shot for a new scene and flags the shots
 * whose lines are gone; a malformed file is refused with the line where it breaks.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const fixture = (name: string) => readFileSync(new URL(`../fixtures/scripts/${name}`, import.meta.url), 'utf8');

interface Shot {
  id: string;
  number: string;
  scene?: string;
  caption?: string;
  action?: string;
  dialogue?: string;
  cast?: string[];
  location?: string;
  status?: string;
  lensMm?: number;
}

describe.each(STORE_TARGETS)('script import: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let cookie: string;
    let viewer: string;

    beforeAll(async () => {
      ({ server, cookie, viewer } = await editorStage(target));
    }, 60_000);
    afterAll(async () => server?.close());

    const asEditor = (request: ApiRequest): ApiRequest => ({
      ...request,
      headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' },
    });
    const read = async (): Promise<CanvasLayout> =>
      (
        (
          await api(server.url, `${CANVAS}/snapshot`, {
            token: viewer,
            headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
          })
        ).body as { layout: CanvasLayout }
      ).layout;
    const nodeData = <T>(layout: CanvasLayout, id: string) => layout.nodes.find((node) => node.id === id)!.data as T;
    const importScript = async (body: Record<string, unknown>) =>
      api(server.url, `${CANVAS}/script-import`, asEditor({ method: 'POST', body }));

    let scriptNodeId = '';
    let boardNodeId = '';

    it('turns a Fountain script into a script node and a board of numbered shots bound to its lines, in one revision', async () => {
      const before = (await read()).revision;
      const answer = await importScript({
        base_revision: before,
        file_name: 'lighthouse.fountain',
        text: fixture('lighthouse.fountain'),
        position: { x: 100, y: 200 },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const receipt = ScriptImportReceipt.parse(answer.body);
      ({ script_node_id: scriptNodeId, board_node_id: boardNodeId } = receipt);
      expect(receipt).toMatchObject({ revision: before + 1, scenes: 3, characters: ['MARA', 'ODE'], changes: null });
      expect(receipt.shots_added).toBe(3);
      expect(receipt.shots_filled).toBe(0);
      expect(receipt.not_mapped.map((entry) => entry.what)).toEqual([
        'the transition "FADE IN:" before the first scene',
        'a note: "Check the lamp prop with the art department."',
      ]);
      const layout = await read();
      const script = nodeData<{ scriptTitle: string; scriptResult: Screenplay }>(layout, scriptNodeId);
      expect(script.scriptTitle).toBe('The Lighthouse');
      expect(script.scriptResult.scenes.map((scene) => [scene.setting, scene.location, scene.timeOfDay])).toEqual([
        ['INT', 'LIGHTHOUSE', 'NIGHT'],
        ['EXT', 'HARBOUR', 'DAWN'],
        ['INT', "MARA'S KITCHEN", 'MORNING'],
      ]);
      const shots = nodeData<{ frames: Shot[] }>(layout, boardNodeId).frames;
      expect(shots.map((shot) => [shot.number, shot.scene, shot.caption])).toEqual([
        ['1', '1', 'INT. LIGHTHOUSE - NIGHT'],
        ['2', '2', 'EXT. HARBOUR - DAWN'],
        ['3', '3', "INT. MARA'S KITCHEN - MORNING"],
      ]);
      expect(shots[0]).toMatchObject({
        action: 'The lamp turns. MARA climbs the last steps, out of breath.',
        // The cue's extension is kept (ODE (V.O.)); the cast is the name alone.
        dialogue: 'MARA (quietly): It is still burning.\nODE (V.O.): It always was.',
        cast: ['MARA', 'ODE'],
        location: 'LIGHTHOUSE',
        status: 'draft',
      });
      expect(Object.keys(script.scriptResult.bindings).sort()).toEqual(shots.map((shot) => shot.id).sort());
    });

    it('imports a revision: says exactly what changed, keeps every shot and its work, adds and flags shots', async () => {
      // The team worked on the board meanwhile: shot 2 is approved, with a lens.
      let layout = await read();
      const board = nodeData<{ frames: Shot[] }>(layout, boardNodeId);
      const worked = board.frames.map((shot, index) =>
        index === 1 ? { ...shot, status: 'approved', lensMm: 85 } : shot,
      );
      const edit = await api(
        server.url,
        `${CANVAS}/changes`,
        asEditor({
          method: 'POST',
          body: {
            base_revision: layout.revision,
            operations: [{ op: 'update_node', node_id: boardNodeId, set: { data: { ...board, frames: worked } } }],
          },
        }),
      );
      expect(edit.status).toBe(201);
      layout = await read();

      const answer = await importScript({
        base_revision: layout.revision,
        file_name: 'lighthouse-revised.fountain',
        text: fixture('lighthouse-revised.fountain'),
        script_node_id: scriptNodeId,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const receipt = ScriptImportReceipt.parse(answer.body);
      expect(receipt.board_node_id).toBe(boardNodeId);
      expect(receipt.changes).toEqual({
        scenes_added: ['EXT. CLIFF PATH - DAY'],
        scenes_removed: ["INT. MARA'S KITCHEN - MORNING"],
        scenes_changed: [
          {
            heading: 'INT. LIGHTHOUSE - NIGHT',
            lines_added: ['MARA: It is still burning. It never stopped.'],
            lines_removed: ['MARA: It is still burning.'],
          },
          { heading: 'EXT. HARBOUR - DAWN', lines_added: [], lines_removed: ['CUT TO:'] },
        ],
      });
      expect(receipt.shots_added).toBe(1);
      expect(receipt.flagged_shots).toEqual([
        {
          shot_id: board.frames[0]!.id,
          number: '1',
          reason: '1 script line this shot showed is changed or gone in the revised script: bind it to the new lines.',
        },
        {
          shot_id: board.frames[2]!.id,
          number: '4',
          reason: "Its scene (INT. MARA'S KITCHEN - MORNING) is not in the revised script.",
        },
      ]);
      const shots = nodeData<{ frames: Shot[] }>(await read(), boardNodeId).frames;
      expect(shots.map((shot) => shot.caption)).toEqual([
        'INT. LIGHTHOUSE - NIGHT',
        'EXT. HARBOUR - DAWN',
        'EXT. CLIFF PATH - DAY',
        "INT. MARA'S KITCHEN - MORNING",
      ]);
      expect(shots[1]).toMatchObject({ status: 'approved', lensMm: 85 });
      expect(shots[0]!.dialogue).toBe('ODE (V.O.): It always was.');
      const script = nodeData<{ scriptResult: Screenplay }>(await read(), scriptNodeId).scriptResult;
      expect(script.imports).toBe(2);
      expect(script.bindings[shots[3]!.id]!.flag).toContain('not in the revised script');
    });

    it('reads a Final Draft file, reporting the paragraphs it does not carry over', async () => {
      const answer = await importScript({
        base_revision: (await read()).revision,
        file_name: 'lighthouse.fdx',
        text: fixture('lighthouse.fdx'),
        position: { x: 0, y: 1200 },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const receipt = ScriptImportReceipt.parse(answer.body);
      expect(receipt).toMatchObject({ scenes: 2, characters: ['MARA', 'ODE'], shots_added: 2 });
      expect(receipt.not_mapped.map((entry) => entry.what)).toContain('a "Shot" paragraph: "CLOSE ON THE LAMP"');
      const shots = nodeData<{ frames: Shot[] }>(await read(), receipt.board_node_id).frames;
      expect(shots[1]!.action).toBe('Fog lifts off the water & the boats wait.');
    });

    it('refuses a malformed file with the line where it breaks, a stale revision and a viewer, writing nothing', async () => {
      const revision = (await read()).revision;
      const broken = await importScript({
        base_revision: revision,
        file_name: 'broken.fdx',
        text: fixture('broken.fdx'),
      });
      expect(broken.status).toBe(400);
      expect(JSON.stringify(broken.body)).toContain('not well-formed XML at line 5');
      expect((broken.body as { error: { details: { line: number } } }).error.details.line).toBe(5);
      const stale = await importScript({
        base_revision: revision - 1,
        file_name: 'again.fountain',
        text: fixture('lighthouse.fountain'),
      });
      expect(stale.status).toBe(409);
      const noScenes = await importScript({ base_revision: revision, file_name: 'note.txt', text: 'Just a note.' });
      expect(noScenes.status).toBe(400);
      expect(JSON.stringify(noScenes.body)).toContain('no scene was found');
      const byViewer = await api(server.url, `${CANVAS}/script-import`, {
        method: 'POST',
        token: viewer,
        body: { base_revision: revision, file_name: 'x.fountain', text: fixture('lighthouse.fountain') },
      });
      expect(byViewer.status).toBe(403);
      expect((await read()).revision).toBe(revision);
    });
  });
});
