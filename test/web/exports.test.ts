import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, UploadReceipt } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, openLink, screenshot, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { readLayout } from '../support/canvas-reads.js';
import { probe } from '../support/media.js';
import { ffmpegFixture } from '../support/upload-fixtures.js';
import { cutFrames } from '../../src/exports/timeline/frame-rate.js';
import { chooseOption } from '../support/controls.js';

/**
 * Deliverables in Chromium: an owner exports a board as a PDF from the Exports tab and downloads it (read back by
 * pdfjs), presents the board with the keyboard, makes a share link that a browser without a session opens (Present mode
 * and the PDF to download), and revokes it: the same link then says it was revoked.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;
const write = { projectId: 'demo', canvasId: 'deliver', clientSaveId: null, authorization: SYSTEM_WRITE };

describe('the web canvas: exports, Present mode and share links', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await server.store.projects.createCanvas('demo', 'deliver', false);
    const editor = await projectToken(server.store, 'demo', 'editor');
    const form = new FormData();
    for (const [name, r, g, b] of [
      ['dawn.png', 230, 160, 90],
      ['harbour.png', 40, 110, 170],
      ['night.png', 20, 30, 60],
    ] as const) {
      const bytes = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r, g, b } } })
        .png()
        .toBuffer();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
    }
    const uploaded = await fetch(`${server.url}/api/v2/projects/demo/canvases/deliver/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}` },
      body: form,
    });
    const urls = UploadReceipt.parse(await uploaded.json()).uploads.map((upload) => upload.url);
    const sounds = new FormData();
    sounds.append('file', new Blob([new Uint8Array(ffmpegFixture('wav', 1, 1000))], { type: 'audio/wav' }), 'mara.wav');
    sounds.append('file', new Blob([new Uint8Array(ffmpegFixture('wav', 2, 200))], { type: 'audio/wav' }), 'sea.wav');
    const [voice, music] = UploadReceipt.parse(
      await (
        await fetch(`${server.url}/api/v2/projects/demo/canvases/deliver/uploads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${editor}` },
          body: sounds,
        })
      ).json(),
    ).uploads.map((upload) => upload.url);
    await server.store.writes.createNode(
      { ...write, baseRevision: 0 },
      CanvasNode.parse({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: {
          title: 'Opening',
          frames: [
            { id: 's1', number: '1', imageUrl: urls[0], action: 'Dawn over the harbour.', durationMs: 2000 },
            { id: 's2', number: '2', imageUrl: urls[1], dialogue: 'Mara: We leave tonight.', shotSize: 'CU' },
            { id: 's3', number: '3', imageUrl: urls[2], action: 'The boat slips out.', durationMs: 2500 },
          ],
        },
      }),
    );
    for (const [index, [id, url]] of (
      [
        ['voice', voice],
        ['music', music],
      ] as const
    ).entries())
      await server.store.writes.createNode(
        { ...write, baseRevision: index + 1 },
        CanvasNode.parse({
          id,
          type: 'audioNode',
          position: { x: 400 * index, y: 500 },
          data: { displayName: id === 'voice' ? 'Mara (voice)' : 'Sea (music)', audioUrl: url },
        }),
      );
    browser = await launchBrowser();
  });
  const read = async () => readLayout(server, 'demo', 'deliver', await projectToken(server.store, 'demo', 'viewer'));
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('exports a PDF from the Exports tab, presents the board, and shares it on a link it then revokes', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'deliver',
    });
    try {
      await page.locator('.feed-live').waitFor();
      await page.getByRole('tab', { name: 'Exports' }).click();
      const newExport = page.getByRole('form', { name: 'New export' });
      await chooseOption(newExport, 'Export as', { value: 'pdf_board' });
      await chooseOption(newExport, 'Columns', '2');
      await chooseOption(newExport, 'Rows', '1');
      await newExport.getByRole('button', { name: 'Export' }).click();
      const link = page.getByRole('link', { name: /Download Opening storyboard\.pdf/ });
      await link.waitFor({ timeout: 60_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const pdf = await getDocument({ data: new Uint8Array(readFileSync((await download.path())!)) }).promise;
      expect(pdf.numPages).toBe(2);
      expect(await seriousFindings(page)).toEqual([]);
      await screenshot(page, 'exports');

      // The animatic with Mara's voice on shot 2 and the sea under it all, at 720p.
      await chooseOption(newExport, 'Export as', { value: 'animatic' });
      await chooseOption(newExport, 'Size', '720p');
      await chooseOption(newExport, 'Sea (music)', 'Music bed (ducked under voices)');
      await chooseOption(newExport, 'Mara (voice)', 'Voice-over from shot 2');
      await expect
        .poll(async () => (await read()).edges.map((edge) => [edge.source, edge.data?.shotId ?? null]).sort())
        .toEqual([
          ['music', null],
          ['voice', 's2'],
        ]);
      await newExport.getByRole('button', { name: 'Export' }).click();
      const film = page.getByRole('link', { name: /Download Opening animatic\.mp4/ });
      await film.waitFor({ timeout: 120_000 });
      const [filmDownload] = await Promise.all([page.waitForEvent('download'), film.click()]);
      const probed = probe(readFileSync((await filmDownload.path())!));
      expect(probed.streams.map((stream) => stream.codec_name).sort()).toEqual(['aac', 'h264']);
      expect(probed.streams.find((stream) => stream.codec_type === 'video')).toMatchObject({
        width: 1280,
        height: 720,
      });
      // 2 s, "Mara: We leave tonight." read at 2.6 words a second (2.04 s), and 2.5 s: the board's own length.
      const frames = cutFrames([2000, 2038, 2500], '24').reduce((sum, shot) => sum + shot.frames, 0);
      expect(probed.durationSeconds).toBeCloseTo(frames / 24, 1);

      await page.getByRole('button', { name: 'Present', exact: true }).click();
      const present = page.getByRole('dialog', { name: 'Present Opening' });
      await expect.poll(() => present.getAttribute('data-shot')).toBe('1');
      await expect.poll(() => present.textContent()).toContain('Dawn over the harbour.');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => present.getAttribute('data-shot')).toBe('2');
      await expect.poll(() => present.textContent()).toContain('Mara: We leave tonight.');
      await page.keyboard.press('End');
      await expect.poll(() => present.getAttribute('data-shot')).toBe('3');
      await screenshot(page, 'present');
      await page.keyboard.press('Escape');
      await present.waitFor({ state: 'detached' });

      const share = page.getByRole('form', { name: 'New share link' });
      await chooseOption(share, 'Show', { value: 'board' });
      await share.getByLabel('Opening storyboard.pdf').check();
      await share.getByRole('button', { name: 'Make a share link' }).click();
      const url = await page.getByLabel('The link (shown once: copy it now)').inputValue();
      expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{32}$/);

      // Someone without an account: a fresh browser context with no session.
      const guest = await openLink(browser, url);
      try {
        await guest.page.getByRole('heading', { name: 'deliver' }).waitFor();
        await guest.page.getByRole('link', { name: 'Opening storyboard.pdf' }).waitFor();
        await screenshot(guest.page, 'share-link');
        await guest.page.getByRole('button', { name: 'Present the board' }).click();
        const shown = guest.page.getByRole('dialog', { name: 'Present Opening' });
        await guest.page.keyboard.press('ArrowRight');
        await expect.poll(() => shown.getAttribute('data-shot')).toBe('2');
        expect(await seriousFindings(guest.page)).toEqual([]);

        await page.locator('.share-item').getByRole('button', { name: 'Revoke' }).click();
        await page.locator('.share-item', { hasText: 'revoked' }).waitFor();
        await guest.page.reload();
        await guest.page.getByText('This share link was revoked by its owner.').waitFor();
        expect(guest.errors).toEqual([]);
      } finally {
        await guest.context.close();
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
