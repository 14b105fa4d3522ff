import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { seriousFindings } from '../support/axe.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { chooseOption } from '../support/controls.js';

/**
 * Result versions in the web canvas, in Chromium: a node run twice has two versions in its details; the person steps
 * back to the first, compares it with the current one side by side, and uses it; the card then shows the first
 * version's image, and the pick is a revision like any edit. Run ×N and Run from here start from the card.
 */

describe('result versions in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  const runIds: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!, { seedDemo: true, workers: 1, runDurationMs: 0 });
    for (let round = 0; round < 2; round += 1) {
      const { run } = await submitNodeRun(server.store, {
        projectId: 'demo',
        canvasId: 'main',
        nodeId: 'frame-1',
        idempotencyKey: `round-${round}`,
        triggeredBy: { kind: 'user', name: 'demo-owner' },
      });
      server.server.engine!.runQueued();
      await waitFor(
        () => server.store.runs.getRun('demo', 'main', run.run_id),
        (current) => current?.status === 'succeeded',
      );
      runIds.push(run.run_id);
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('steps through the versions, compares one with the current, and uses it on the card', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    try {
      await page.locator('.feed-live').waitFor();
      await card(page, 'frame-1').click();
      const versions = page.locator('section.versions');
      await versions.getByText('Version 2 of 2 (current, the latest)').waitFor();
      await versions.getByRole('button', { name: 'Previous' }).click();
      await versions.getByText('Version 1 of 2').waitFor();
      await versions.getByLabel('Compare with the current one').check();
      await versions.locator('.version-compare figure').nth(1).getByText('Version 1').waitFor();
      expect(await versions.locator('.version-compare img').count()).toBe(2);
      await screenshot(page, 'result-versions');
      expect(await seriousFindings(page)).toEqual([]);

      const before = (await server.store.layout.readCanvas('demo', 'main'))!.revision;
      await versions.getByRole('button', { name: 'Use this version' }).click();
      await versions.getByText('Version 1 of 2 (current, picked)').waitFor();
      const node = await waitFor(
        async () =>
          (await server.store.layout.readNode('demo', 'main', 'frame-1'))!.node.data as {
            externalRunId?: string;
            committed_slot_url?: string;
          },
        (data) => data.externalRunId === runIds[0],
      );
      expect((await server.store.layout.readCanvas('demo', 'main'))!.revision).toBe(before + 1);
      const firstAsset = (await server.store.runs.getRun('demo', 'main', runIds[0]!))!.outputs[0]!.asset_id;
      expect(node.committed_slot_url).toBe(`/assets/${firstAsset}`);
      await card(page, 'frame-1').locator(`img[src*="${firstAsset}"]`).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Run ×2 from the card starts two runs, each a version of its own', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    try {
      await page.locator('.feed-live').waitFor();
      const frame = card(page, 'frame-1');
      await frame.getByRole('button', { name: 'Run', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Start a run' });
      await dialog.getByText(/costs about/).waitFor();
      await chooseOption(dialog, 'Variants', '×2');
      await dialog.getByText(/These 2 runs cost about/).waitFor();
      await dialog.getByRole('button', { name: 'Start 2 runs' }).click();
      const versions = await waitFor(
        () => server.store.versions.ofNode('demo', 'main', 'frame-1'),
        (rows) => rows.length === 4,
        20_000,
      );
      expect(versions.slice(-2).map((row) => row.idempotency_key?.replace(/^.*#/, '#'))).toEqual(['#1', '#2']);
      await frame.click();
      await page.locator('section.versions').getByText(/of 4/).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('steps through the versions on the card itself and uses one from there', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    try {
      await page.locator('.feed-live').waitFor();
      const frame = card(page, 'frame-1');
      await frame.getByRole('button', { name: 'Versions' }).click();
      const stepper = frame.getByRole('group', { name: 'Result versions' });
      // Version 1 was picked earlier; the two variants since did not take the pick away.
      await stepper.getByText('Version 1 of 4 (current)').waitFor();
      await stepper.getByRole('button', { name: 'Next version' }).click();
      await stepper.getByText('Version 2 of 4').waitFor();
      const second = (await server.store.runs.getRun('demo', 'main', runIds[1]!))!.outputs[0]!.asset_id;
      await frame.locator(`img[src*="${second}"]`).waitFor();
      await screenshot(page, 'card-versions');
      expect(await seriousFindings(page)).toEqual([]);
      await stepper.getByRole('button', { name: 'Use this' }).click();
      await waitFor(
        async () =>
          ((await server.store.layout.readNode('demo', 'main', 'frame-1'))!.node.data as { externalRunId?: string })
            .externalRunId,
        (picked) => picked === runIds[1],
      );
      await frame.getByRole('button', { name: 'Versions' }).click();
      await stepper.getByText('Version 2 of 4 (current)').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Run from here quotes the chain downstream, runs it with its progress on the card, then finds nothing changed', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    try {
      await page.locator('.feed-live').waitFor();
      // The frame's prompt changes (through the API, as another tab would): it runs again, and so does the voice
      // downstream of it, which never ran.
      const stored = (await server.store.layout.readNode('demo', 'main', 'frame-1'))!;
      const edited = await context.request.patch(`${server.url}/api/v2/projects/demo/canvases/main/nodes/frame-1`, {
        headers: { origin: server.url, 'x-requested-by': 'canvas-mcp' },
        data: {
          base_revision: (await server.store.layout.readCanvas('demo', 'main'))!.revision,
          set: { data: { ...stored.node.data, prompt: 'the lighthouse, at dawn' } },
        },
      });
      expect(edited.status()).toBe(200);
      const frame = card(page, 'frame-1');
      await frame.getByRole('button', { name: 'Run', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Start a run' });
      await dialog.getByText(/costs about/).waitFor();
      await dialog.getByLabel(/From here/).check();
      await dialog.getByText(/^2 nodes run, for about 2 credits together/).waitFor();
      expect(
        await dialog
          .locator('.chain-steps li')
          .evaluateAll((items) =>
            items.map((item) => [item.getAttribute('data-step'), item.getAttribute('data-cached')]),
          ),
      ).toEqual([
        ['frame-1', 'false'],
        ['voice-1', 'false'],
      ]);
      await screenshot(page, 'run-from-here');
      expect(await seriousFindings(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Start chain (2 runs)' }).click();
      await frame
        .locator('.chain-progress[data-chain-status="succeeded"]')
        .getByText('Chain done: 2 ran, 2 credits.')
        .waitFor({ timeout: 20_000 });
      const voice = (await server.store.runs.latestRunsByNode('demo', 'main')).find(
        (row) => row.node_id === 'voice-1',
      )!;
      expect(voice).toMatchObject({ status: 'succeeded', chain_id: expect.stringMatching(/^chain_/) });

      await frame.getByRole('button', { name: 'Run', exact: true }).click();
      await dialog.getByLabel(/From here/).check();
      await dialog.getByText('Nothing changed: every node of this chain is cached, so nothing would run.').waitFor();
      expect(await dialog.getByRole('button', { name: 'Start chain' }).isDisabled()).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('a chain running when the page opens', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // No worker: the chain's steps stay queued until the person cancels them.
    server = await startTestServer(STORE_TARGETS[0]!, { seedDemo: true, workers: 0 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is shown on its card after a reload, with its progress and Cancel chain, which stops it', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    try {
      await page.locator('.feed-live').waitFor();
      const started = await context.request.post(
        `${server.url}/api/v2/projects/demo/canvases/main/nodes/frame-1/runs/downstream`,
        {
          headers: { origin: server.url, 'x-requested-by': 'canvas-mcp', 'idempotency-key': 'from-another-tab' },
        },
      );
      expect(started.status()).toBe(202);
      await page.reload();
      const progress = card(page, 'frame-1').locator('.chain-progress[data-chain-status="active"]');
      await progress.getByText('Chain running: 0 of 2 done.').waitFor();
      await progress.getByRole('button', { name: 'Cancel chain' }).click();
      await card(page, 'frame-1')
        .locator('.chain-progress[data-chain-status="cancelled"]')
        .getByText('Chain cancelled: the steps not yet run did not start.')
        .waitFor();
      const chainId = ((await started.json()) as { chain_id: string }).chain_id;
      expect(
        (await server.store.runs.latestRunsByNode('demo', 'main'))
          .filter((row) => row.chain_id === chainId)
          .map((row) => row.status),
      ).toEqual(['cancelled', 'cancelled']);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
