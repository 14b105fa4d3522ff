import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { payloadWork } from '../../src/shared/json-payload.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import type { Store } from '../../src/store/store.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { connectFlavour, type ClientFlavour, type ConnectedClient } from '../support/mcp-clients.js';
import { deploy, type McpDeployment } from '../support/mcp.js';
import { api, type ApiRequest } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { IDP } from '../backend/world.js';

/**
 * The read path's guard (docs/performance.md, "What made get_canvas fast"): work is counted, not timed, so the test
 * cannot be noisy. The server runs in this process, so `payloadWork` counts what it escaped, encoded and flattened.
 * Two get_canvas reads of a 1,000-node canvas that has not changed in between, each with every extra a read can carry
 * (free areas, the board picture's address, the project's elements, a person's presence, and on the first the changes
 * a person made since the agent's last read), escape and encode the document once between them; a canvas that changes
 * costs the same once per revision. Before the fix each read escaped and encoded the whole document again.
 */

const NODES = 1000;

async function fill(store: Store, canvasId: string): Promise<void> {
  await store.projects.createCanvas('p1', canvasId, false);
  for (let index = 0; index < NODES; index += 1)
    await store.writes.createNode(
      { projectId: 'p1', canvasId, baseRevision: index, clientSaveId: null, authorization: SYSTEM_WRITE },
      CanvasNode.parse({
        id: `n${index}`,
        type: 'textAnnotationNode',
        position: { x: (index % 40) * 320, y: Math.floor(index / 40) * 240 },
        data: { displayName: `Note ${index}`, content: `Keep the lamp as the only warm light in shot ${index}.` },
      }),
    );
}

type Read = {
  layout: { revision: number };
  changes_since_your_last_read?: unknown;
  free_areas?: unknown;
  board_image_uri?: unknown;
  elements?: unknown;
  presence?: unknown;
};

const ERAS: ReadonlyArray<{ era: string; flavour: ClientFlavour }> = [
  { era: '2025-06-18 (SDK v1)', flavour: { sdk: 'v1', protocolVersion: '2025-06-18' } },
  { era: '2026-07-28 (SDK v2)', flavour: { sdk: 'v2', mode: { pin: '2026-07-28' } } },
];

describe('get_canvas: an unchanged canvas is escaped and encoded once, however often it is read', () => {
  let deployment: McpDeployment;
  let asAlice: (request?: ApiRequest) => ApiRequest;

  beforeAll(async () => {
    deployment = await deploy('in-process', STORE_TARGETS[0]!);
    for (const { flavour } of ERAS) await fill(deployment.backend.store, canvasOf(flavour));
    const editor = await projectToken(deployment.backend.store, 'p1', 'editor');
    const element = await api(deployment.backend.url, '/api/v1/projects/p1/elements', {
      method: 'POST',
      token: editor,
      body: { kind: 'location', name: 'Lighthouse' },
    });
    expect(element.status, JSON.stringify(element.body)).toBe(201);
    asAlice = await signedInPerson(deployment.backend, { issuer: IDP, subject: 'alice' });
  }, 120_000);
  afterAll(async () => {
    await deployment?.close();
  });

  function canvasOf(flavour: ClientFlavour): string {
    return flavour.sdk === 'v1' ? 'work-legacy' : 'work-modern';
  }

  async function personEdits(canvasId: string, revision: number, words: string): Promise<void> {
    const path = `/api/v2/projects/p1/canvases/${canvasId}`;
    const edit = await api(
      deployment.backend.url,
      `${path}/nodes/n7`,
      asAlice({
        method: 'PATCH',
        body: { base_revision: revision, client_save_id: null, set: { data: { content: words } } },
      }),
    );
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const present = await api(
      deployment.backend.url,
      `${path}/presence`,
      asAlice({ method: 'POST', body: { selection: ['n7'], cursor: null } }),
    );
    expect(present.status).toBe(204);
  }

  describe.each(ERAS)('$era', ({ flavour }) => {
    let agent: ConnectedClient;
    const canvasId = canvasOf(flavour);
    const read = async () => {
      const result = (await agent.client.callTool({
        name: 'get_canvas',
        arguments: { project_id: 'p1', canvas_id: canvasId },
      })) as { content: Array<{ text: string }>; structuredContent: Read };
      // The text block is the structured result, escaped: the work saved never changes what is sent.
      expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
      return { text: result.content[0]!.text, read: result.structuredContent };
    };

    beforeAll(async () => {
      agent = await connectFlavour(
        deployment.mcpUrl,
        {
          Authorization: `Bearer ${deployment.world.tokens.editor.secret}`,
          'X-Agent-Run-Id': deployment.world.chatRuns.edit,
        },
        flavour,
      );
    });
    afterAll(async () => {
      await agent?.client.close();
    });

    it('reads with every extra, twice, and escapes and encodes the document once; once more per new revision', async () => {
      const first = await read();
      for (const round of [1, 2]) {
        await personEdits(canvasId, first.read.layout.revision + round - 1, `changed in round ${round}`);
        payloadWork.reset();
        const changed = await read();
        const again = await read();
        const documentChars = again.text.length;

        expect(changed.read.changes_since_your_last_read).toBeDefined();
        expect(again.read.changes_since_your_last_read).toBeUndefined();
        for (const { read: each } of [changed, again]) {
          expect(each.free_areas).toBeDefined();
          expect(each.board_image_uri).toBeDefined();
          expect(each.elements).toMatchObject([{ name: 'Lighthouse' }]);
          expect(each.presence).toMatchObject([{ name: 'alice' }]);
        }
        // Once for the new revision (the JSON form and the escaped form each encoded once), never for the re-read.
        const work = { ...payloadWork, documentChars };
        expect(payloadWork.escapedChars, JSON.stringify(work)).toBeLessThan(1.2 * documentChars);
        expect(payloadWork.encodedChars, JSON.stringify(work)).toBeLessThan(2.4 * documentChars);
        expect(payloadWork.flattenedChars, JSON.stringify(work)).toBeLessThan(1.2 * documentChars);
      }
    });
  });
});
