import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type NodeRun } from '../../src/contract/index.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { REPLICATE_TOKEN, startHostedStandIn, type HostedStandIn } from '../support/hosted-standins.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * A provider's error message is kept in the run record and shown to everyone who may read the canvas; a provider that
 * echoes the key it was sent must not put that key there. Configured secrets, and anything shaped like a key, are
 * redacted before a message is stored, shown or logged.
 */

describe.each(STORE_TARGETS)('a provider that echoes its key: $name', (target) => {
  describe.skipIf(!target.available)('through the engine', () => {
    let standIn: HostedStandIn;
    let server: TestServer;
    beforeAll(async () => {
      standIn = await startHostedStandIn();
      server = await startTestServer(target, {
        workers: 1,
        imageProvider: 'replicate',
        replicateBaseUrl: standIn.replicateUrl,
        replicateApiToken: REPLICATE_TOKEN,
        providerPollMs: 20,
      });
      await server.store.projects.createWorkspace('w');
      await server.store.projects.createProject('p', 'w');
      await server.store.projects.createCanvas('p', 'c', false);
    });
    afterAll(async () => {
      await server?.close();
      await standIn?.close();
    });

    it('keeps no key in the run record, in what get_canvas_node_run shows, or in the log', async () => {
      standIn.plans.push({
        doneWithinWait: true,
        outcome: 'failed',
        failureText: `Authentication with token ${REPLICATE_TOKEN} failed (Authorization: Bearer ${REPLICATE_TOKEN})`,
      });
      const node = CanvasNode.parse({
        id: 'frame',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: 'a lighthouse', size: '1K', imageUrl: null, aspectRatio: '1:1' },
      });
      await server.store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        node,
      );
      const { run } = await submitNodeRun(server.store, {
        projectId: 'p',
        canvasId: 'c',
        nodeId: 'frame',
        idempotencyKey: null,
        triggeredBy: { kind: 'system', name: 'test' },
      });
      server.server.engine!.runQueued();
      const failed = (await waitFor(
        () => server.store.runs.getRun('p', 'c', run.run_id),
        (found) => found?.status === 'failed',
      )) as NodeRun;
      expect(failed.error?.message).toContain('Authentication with token [redacted] failed');
      const stored = JSON.stringify(
        await server.store.driver.all('SELECT * FROM node_runs WHERE id = ?', [run.run_id]),
      );
      expect(stored).not.toContain(REPLICATE_TOKEN);
      expect(server.logs.join('')).not.toContain(REPLICATE_TOKEN);
    });
  });
});
