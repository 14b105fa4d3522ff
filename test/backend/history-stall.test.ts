import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode, type HistoryPage } from '../../src/contract/index.js';
import { LOOP_BUDGET_MS, loopDelayMonitor, pollWhile } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * The defect guarded here: a history page of 200 revisions read every body those revisions left (history never uses
 * them) and grouped changes in O(revisions × changes): ~470 ms a page, and two viewers reading history in a loop pushed
 * /healthz from 3 ms to ~1 s. A page now reads no body and groups in one pass.
 */

const REVISIONS = 200;

function bigNode(id: string, version: number) {
  return CanvasNode.parse({
    id,
    type: 'beatContextNode',
    position: { x: 0, y: 0 },
    data: {
      content: `v${version}`,
      mainline_context: [`${version}`.padEnd(100_000, 'x'), `${version}`.padEnd(100_000, 'y')],
    },
  });
}

describe.each(STORE_TARGETS)('history pages while the server serves others: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let viewer: string;

    beforeAll(async () => {
      server = await startTestServer(target);
      const { projects, tokens, writes } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      ({ secret: viewer } = await tokens.createToken({
        name: 'viewer',
        kind: 'backend',
        role: 'viewer',
        projects: ['p'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      }));
      const at = (baseRevision: number) => ({
        projectId: 'p',
        canvasId: 'c',
        baseRevision,
        clientSaveId: null,
        authorization: SYSTEM_WRITE,
      });
      await writes.createNode(at(0), bigNode('a', 0));
      // About 200 KB of change log per revision: 40 MB in all.
      for (let revision = 1; revision < REVISIONS; revision += 1)
        await writes.updateNode(at(revision), 'a', { data: bigNode('a', revision).data });
    }, 180_000);
    afterAll(async () => server?.close());

    it('never holds the event loop past its budget while two viewers read pages of 200 revisions in a loop', async () => {
      const loop = loopDelayMonitor();
      const health = pollWhile(`${server.url}/healthz`, 5);
      let pages = 0;
      const started = performance.now();
      const reader = async () => {
        while (performance.now() - started < 1500) {
          const response = await fetch(`${server.url}/api/v2/projects/p/canvases/c/history?limit=200`, {
            headers: { authorization: `Bearer ${viewer}` },
          });
          const page = (await response.json()) as HistoryPage;
          expect(page.revisions).toHaveLength(REVISIONS);
          expect(page.revisions[0]!.changes).toEqual([{ kind: 'node', id: 'a', change: 'update' }]);
          pages += 1;
        }
      };
      try {
        await Promise.all([reader(), reader()]);
      } finally {
        const samples = await health.stop();
        const held = loop.stop();
        const slowest = Math.max(...samples.map((sample) => sample.ms));
        process.stderr.write(
          `history: ${pages} pages of 200 revisions in 1.5 s; slowest /healthz ${slowest.toFixed(1)} ms over ${samples.length} answers; event loop held at most ${held.toFixed(0)} ms\n`,
        );
        expect(samples.every((sample) => sample.status === 200)).toBe(true);
        expect(held).toBeLessThan(LOOP_BUDGET_MS);
      }
    }, 60_000);
  });
});
