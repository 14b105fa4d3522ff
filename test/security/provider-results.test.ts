import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { localAssetPath } from '../../src/assets/local-store.js';
import { CanvasNode, type NodeRun } from '../../src/contract/index.js';
import { createReplicateProvider } from '../../src/runs/providers/hosted/replicate-provider.js';
import { ProviderError, type ProviderJob } from '../../src/runs/providers/provider.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { launchBrowser } from '../support/browser.js';
import { REPLICATE_TOKEN, startHostedStandIn, type HostedStandIn } from '../support/hosted-standins.js';
import { signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * A hosted provider's result is kept only as the media type the run makes, decided from its bytes; its `content-type`
 * and a `data:` URI's type are never trusted, and SVG and HTML are refused. Every asset answer is `nosniff` with a
 * sandboxing Content-Security-Policy, and anything that is not a raster picture, a sound or a film is a download, so
 * nothing served from the app's origin runs with a viewer's session.
 */

const SVG_WITH_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>window.top.pwned = document.cookie</script></svg>',
);
const HTML_PAGE = Buffer.from('<!doctype html><html><body><script>fetch("/api/v1/me")</script></body></html>');

const job = (outputs = 1): ProviderJob => ({
  runId: 'run_test',
  attempt: 1,
  operation: 'image_generation',
  skillId: null,
  input: { prompt: 'a lighthouse at dusk', aspectRatio: '16:9' },
  outputs: Array.from({ length: outputs }, (_, index) => ({
    assetId: `asset_${String(index).padStart(16, '0')}`,
    kind: 'image' as const,
  })),
  costEstimated: 1,
  references: [],
});

const context = { signal: new AbortController().signal, progress: () => undefined, inputFile: async () => null };

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const caught = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(ProviderError);
  return caught as ProviderError;
}

describe("a hosted provider's result files", () => {
  let standIn: HostedStandIn;
  beforeAll(async () => {
    standIn = await startHostedStandIn();
  });
  afterAll(async () => standIn?.close());
  beforeEach(() => {
    standIn.plans.length = 0;
  });
  const replicate = () =>
    createReplicateProvider({
      apiToken: REPLICATE_TOKEN,
      baseUrl: standIn.replicateUrl,
      models: { image_generation: 'black-forest-labs/flux-schnell' },
      pollIntervalMs: 10,
    });

  it.each([
    ['an SVG with a script, sent as image/png', SVG_WITH_SCRIPT, 'image/png', 'an SVG document'],
    ['an SVG with a script, sent as image/svg+xml', SVG_WITH_SCRIPT, 'image/svg+xml', 'an SVG document'],
    ['an HTML page, sent as image/png', HTML_PAGE, 'image/png', 'an HTML document'],
  ])('refuses %s: the type comes from the bytes', async (_name, bytes, contentType, found) => {
    standIn.plans.push({ doneWithinWait: true, file: { bytes, contentType } });
    const failure = await failureOf(replicate().execute(job(), context));
    expect(failure).toMatchObject({ code: 'provider_error', retryable: false });
    expect(failure.message).toBe(`Replicate's result file 1 is ${found}, not an image file: it was not kept.`);
  });

  it.each([
    ['text/html', `data:text/html;base64,${HTML_PAGE.toString('base64')}`],
    ['image/svg+xml', `data:image/svg+xml;base64,${SVG_WITH_SCRIPT.toString('base64')}`],
  ])('refuses a data: URI of type %s', async (type, uri) => {
    standIn.plans.push({ doneWithinWait: true, dataUris: [uri] });
    const failure = await failureOf(replicate().execute(job(), context));
    expect(failure.message).toBe(
      `Replicate answered a data: URI of type ${type} where the run makes an image file: it was not kept.`,
    );
  });

  it('refuses a data: URI that says image/png but holds an SVG', async () => {
    standIn.plans.push({
      doneWithinWait: true,
      dataUris: [`data:image/png;base64,${SVG_WITH_SCRIPT.toString('base64')}`],
    });
    const failure = await failureOf(replicate().execute(job(), context));
    expect(failure.message).toContain('is an SVG document, not an image file');
  });

  describe.each(STORE_TARGETS)('through the engine and the asset route: $name', (target) => {
    describe.skipIf(!target.available)('on a server whose images run on Replicate', () => {
      let server: TestServer;
      let revision = 0;
      beforeAll(async () => {
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
        await server.store.projects.addMember('p', { issuer: 'idp', subject: 'vera' }, 'viewer');
      });
      afterAll(async () => server?.close());

      async function run(id: string): Promise<NodeRun> {
        const node = CanvasNode.parse({
          id,
          type: 'imageGenNode',
          position: { x: 0, y: revision * 300 },
          data: { prompt: id, size: '1K', imageUrl: null, aspectRatio: '1:1' },
        });
        await server.store.writes.createNode(
          { projectId: 'p', canvasId: 'c', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
          node,
        );
        revision += 1;
        const { run: submitted } = await submitNodeRun(server.store, {
          projectId: 'p',
          canvasId: 'c',
          nodeId: id,
          idempotencyKey: null,
          triggeredBy: { kind: 'system', name: 'test' },
        });
        server.server.engine!.runQueued();
        return (await waitFor(
          () => server.store.runs.getRun('p', 'c', submitted.run_id),
          (found) => found?.status === 'succeeded' || found?.status === 'failed',
        )) as NodeRun;
      }

      it('a run whose result is an SVG fails with a provider_error and keeps no asset', async () => {
        standIn.plans.push({ doneWithinWait: true, file: { bytes: SVG_WITH_SCRIPT, contentType: 'image/png' } });
        const failed = await run('svg');
        expect(failed).toMatchObject({
          status: 'failed',
          error: { code: 'provider_error', message: expect.stringContaining('is an SVG document') },
        });
        const kept = await server.store.driver.all('SELECT id FROM assets WHERE run_id = ?', [failed.run_id]);
        expect(kept).toEqual([]);
      });

      it('every asset answer is nosniff and sandboxed; a file that is not a raster picture is a download whose script never runs', async () => {
        standIn.plans.push({ doneWithinWait: true });
        const picture = await run('png');
        expect(picture).toMatchObject({ status: 'succeeded', outputs: [{ mime_type: 'image/png' }] });
        const link = await server.store.sessions.createLoginLink(
          { issuer: 'idp', subject: 'vera' },
          { expiresInMs: 60_000 },
        );
        const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`);
        const url = `${server.url}${picture.outputs[0]!.url}`;
        const shown = await fetch(url, { headers: { cookie } });
        expect(shown.status).toBe(200);
        expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
        expect(shown.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
        expect(shown.headers.get('content-disposition')).toBeNull();
        const refused = await fetch(`${server.url}/assets/asset_AAAAAAAAAAAAAAAA`);
        expect(refused.status).toBe(401);
        expect(refused.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");

        // An asset kept as SVG before this rule (its row and its bytes), opened by a signed-in viewer in Chromium.
        const assetId = picture.outputs[0]!.asset_id;
        await server.store.driver.run('UPDATE assets SET mime_type = ?, byte_size = ? WHERE id = ?', [
          'image/svg+xml',
          SVG_WITH_SCRIPT.length,
          assetId,
        ]);
        writeFileSync(localAssetPath(server.server.config.dataDir, assetId), SVG_WITH_SCRIPT);
        const svg = await fetch(url, { headers: { cookie } });
        expect(svg.headers.get('content-type')).toBe('image/svg+xml');
        expect(svg.headers.get('content-disposition')).toBe(`attachment; filename="${assetId}"`);
        expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");

        // In Chromium, as that viewer: the file is downloaded, never shown as a page of this origin.
        const browser = await launchBrowser();
        try {
          const context = await browser.newContext({ acceptDownloads: true });
          const [name, ...value] = cookie.split('=');
          await context.addCookies([{ name: name!, value: value.join('='), url: server.url }]);
          const page = await context.newPage();
          await page.goto(`${server.url}/healthz`);
          const download = page.waitForEvent('download');
          await page.goto(url).catch(() => undefined);
          expect((await download).suggestedFilename()).toBe(assetId);
          expect(page.url()).toBe(`${server.url}/healthz`);
          expect(await page.evaluate(() => (globalThis as { pwned?: string }).pwned ?? null)).toBeNull();
        } finally {
          await browser.close();
        }
      });
    });
  });
});
