import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import type { ReadChanges } from '../../src/mcp/read-changes.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { connectClient, deploy, structured, type McpDeployment } from '../support/mcp.js';
import { api } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { IDP } from '../backend/world.js';

/**
 * "Changes since your last read" through the official SDK client, in-process and through a gateway, on both stores:
 * after a person edits the canvas, the agent's next get_canvas names the revision, who made it and what changed; the
 * agent's own writes and a read with nothing new carry no such field.
 */

type Read = { layout: { revision: number }; changes_since_your_last_read?: ReadChanges };

describe.each(STORE_TARGETS)('changes since the last read: $name', (target) => {
  describe.skipIf(!target.available).each(['in-process', 'gateway'] as const)('%s', (mode) => {
    let deployment: McpDeployment;
    let agent: Client;
    const read = async () =>
      structured<Read>(await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } }));

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      await deployment.backend.store.writes.createNode(
        { projectId: 'p1', canvasId: 'c1', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({ id: 'note', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'a' } }),
      );
      agent = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${deployment.world.tokens.editor.secret}`,
        'X-Agent-Run-Id': deployment.world.chatRuns.edit,
      });
    }, 60_000);
    afterAll(async () => {
      await agent?.close();
      await deployment?.close();
    });

    it('tells the agent what a person changed since its last read, and nothing of its own writes', async () => {
      const first = await read();
      expect(first.changes_since_your_last_read).toBeUndefined();

      const asAlice = await signedInPerson(deployment.backend, { issuer: IDP, subject: 'alice' });
      const edit = await api(
        deployment.backend.url,
        '/api/v2/projects/p1/canvases/c1/nodes/note',
        asAlice({
          method: 'PATCH',
          body: { base_revision: first.layout.revision, client_save_id: null, set: { data: { content: 'b' } } },
        }),
      );
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);

      const second = await read();
      expect(second.changes_since_your_last_read).toEqual({
        since_revision: first.layout.revision,
        revisions: [
          {
            revision: first.layout.revision + 1,
            by: 'alice',
            changes: [{ kind: 'node', id: 'note', change: 'update' }],
          },
        ],
        more: false,
      });

      const own = await agent.callTool({
        name: 'create_canvas_node',
        arguments: {
          project_id: 'p1',
          canvas_id: 'c1',
          base_revision: second.layout.revision,
          node: { id: 'mine', type: 'textAnnotationNode', position: { x: 400, y: 0 }, data: { content: 'x' } },
        },
      });
      expect(own.isError, JSON.stringify(own.content)).toBeFalsy();
      const third = await read();
      expect(third.layout.revision).toBe(second.layout.revision + 1);
      expect(third.changes_since_your_last_read).toBeUndefined();
      expect((await read()).changes_since_your_last_read).toBeUndefined();
    });
  });
});
