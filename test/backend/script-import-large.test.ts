import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ScriptImportReceipt,
  SNAPSHOT_CONTRACT_VERSION,
  type CanvasLayout,
  type Screenplay,
} from '../../src/contract/index.js';
import { api, type TestServer } from '../support/servers.js';
import { editorStage } from '../support/editor-stage.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * A long screenplay (about 2 MB of Fountain, 700 scenes) imports within the documented 8 MiB: the screenplay is kept as
 * an asset the script node names, the node keeps what the board and the page read (headings, cast, the shots' flags),
 * and a revised import reads the whole screenplay back from the asset.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const SCENES = 700;

function longScript(revised = false): string {
  const parts = ['Title: The Long Night', ''];
  for (let scene = 1; scene <= SCENES; scene += 1) {
    parts.push(`INT. ROOM ${scene} - NIGHT`, '');
    for (let beat = 0; beat < 12; beat += 1) {
      parts.push(
        `MARA walks the length of room ${scene} for the ${beat + 1}th time, counting the boards under her feet, listening for the sea below the floor and the lamp above it turning slowly.`,
        '',
        'MARA',
        revised && scene === 5 && beat === 0
          ? 'It has changed.'
          : `Room ${scene}, beat ${beat}: nothing has changed since the last time I counted, and nothing will.`,
        '',
      );
    }
  }
  return parts.join('\n');
}

describe.each(STORE_TARGETS)('a long screenplay: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let cookie: string;
    let viewer: string;

    beforeAll(async () => {
      ({ server, cookie, viewer } = await editorStage(target));
    }, 60_000);
    afterAll(async () => server?.close());

    const read = async (): Promise<CanvasLayout> =>
      (
        (
          await api(server.url, `${CANVAS}/snapshot`, {
            token: viewer,
            headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
          })
        ).body as { layout: CanvasLayout }
      ).layout;
    const importScript = (body: Record<string, unknown>) =>
      api(server.url, `${CANVAS}/script-import`, {
        method: 'POST',
        body,
        headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' },
      });

    it('imports 2 MB of screenplay, keeping the whole screenplay as an asset the script node names', async () => {
      const text = longScript();
      expect(Buffer.byteLength(text)).toBeGreaterThan(2_000_000);
      const answer = await importScript({ base_revision: (await read()).revision, file_name: 'long.fountain', text });
      expect(answer.status, JSON.stringify(answer.body).slice(0, 400)).toBe(201);
      const receipt = ScriptImportReceipt.parse(answer.body);
      expect(receipt).toMatchObject({ scenes: SCENES, shots_added: SCENES, characters: ['MARA'] });

      const layout = await read();
      const scriptNode = layout.nodes.find((node) => node.id === receipt.script_node_id)!;
      const inNode = (scriptNode.data as { scriptResult: Screenplay }).scriptResult;
      // The node holds what readers of the canvas need, within a node's 512 KiB.
      expect(Buffer.byteLength(JSON.stringify(scriptNode))).toBeLessThan(512 * 1024);
      expect(inNode.scenes).toHaveLength(SCENES);
      expect(inNode.scenes[4]!.heading).toBe('INT. ROOM 5 - NIGHT');
      expect(inNode.scenes[4]!.lines).toEqual([]);
      expect(inNode.fullScreenplayUrl).toMatch(/^\/assets\//);
      // The whole screenplay, lines and bindings, is in the asset.
      const full = await api(server.url, inNode.fullScreenplayUrl!, { token: viewer });
      expect(full.status).toBe(200);
      const whole = full.body as Screenplay;
      expect(whole.scenes[4]!.lines.length).toBe(24);
      // Each shot is bound to its scene (no lineIds: all of the scene's lines).
      expect(Object.values(whole.bindings).map((binding) => binding.sceneId)).toEqual(
        whole.scenes.map((scene) => scene.id),
      );
      // The board holds a shot per scene; its words are excerpts, said so in the answer, the lines whole in the asset.
      const board = layout.nodes.find((node) => node.id === receipt.board_node_id)!;
      const frames = (board.data as { frames: Array<{ action?: string; dialogue?: string }> }).frames;
      expect(frames).toHaveLength(SCENES);
      expect(frames[4]!.action).toMatch(/^MARA walks the length of room 5 .*…$/s);
      expect(Buffer.byteLength(JSON.stringify(board))).toBeLessThan(512 * 1024);
      expect(receipt.not_mapped.map((entry) => entry.what)).toEqual([
        expect.stringMatching(/^the whole action and dialogue of 700 shots: the board shows an excerpt/),
      ]);
    });

    it('imports the revision of it into the same node: one scene changed, read from the kept screenplay', async () => {
      const layout = await read();
      const scriptNode = layout.nodes.find((node) => node.type === 'scriptNode')!;
      const answer = await importScript({
        base_revision: layout.revision,
        file_name: 'long.fountain',
        text: longScript(true),
        script_node_id: scriptNode.id,
      });
      expect(answer.status, JSON.stringify(answer.body).slice(0, 400)).toBe(201);
      const receipt = ScriptImportReceipt.parse(answer.body);
      expect(receipt.changes?.scenes_changed.map((scene) => scene.heading)).toEqual(['INT. ROOM 5 - NIGHT']);
      expect(receipt.flagged_shots).toHaveLength(1);
      expect(receipt.shots_added).toBe(0);
    });
  });
});
