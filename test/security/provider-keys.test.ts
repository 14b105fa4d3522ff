import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type NodeRun } from '../../src/contract/index.js';
import { redactSecrets } from '../../src/runs/providers/redaction.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { REPLICATE_TOKEN, startHostedStandIn, type HostedStandIn } from '../support/hosted-standins.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 29, item 9: a provider's error message is kept in the run record and shown to everyone who may read the
 * canvas; a provider that echoes the key it was sent must not put that key there. Configured secrets, and anything
 * shaped like a key, are redacted before a message is stored, shown or logged.
 */

describe('redacting provider messages', () => {
  it.each([
    [
      'a configured secret, wherever it stands',
      'invalid key abcd-secret-1234 for model x',
      'invalid key [redacted] for model x',
    ],
    [
      'an OpenAI-style key',
      'Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOp1234.',
      'Incorrect API key provided: [redacted].',
    ],
    ['an Anthropic-style key', 'key sk-ant-api03-ZZZZZZZZZZZZZZZZ refused', 'key [redacted] refused'],
    ['a Replicate token', 'token r8_ABCDEFGHIJKLMNOPQRSTU is not valid', 'token [redacted] is not valid'],
    [
      'an Authorization header echoed back',
      'sent Authorization: Bearer abc.def.ghi-jkl',
      'sent Authorization: [redacted]',
    ],
    [
      "fal's key scheme",
      'header was Key 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0:0123456789abcdef0123',
      'header was [redacted]',
    ],
    ['a key=value pair', 'GET /v1?api_key=hunter2hunter2&x=1 failed', 'GET /v1?api_key=[redacted]&x=1 failed'],
  ])('removes %s', (_name, text, clean) => {
    expect(redactSecrets(text, ['abcd-secret-1234'])).toBe(clean);
  });

  it('leaves ordinary words, run ids and asset ids alone', () => {
    const text = 'The run run_Zx81kLmNoPq timed out while asset_0000000000000001 was uploading; token limit reached.';
    expect(redactSecrets(text, [])).toBe(text);
  });
});

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
