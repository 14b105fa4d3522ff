import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { CanvasNode, ExportView, ShareLinkView, ThreadList, UploadReceipt } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, openLink, screenshot, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';
import { chooseOption } from '../support/controls.js';

/**
 * Drawn notes in Chromium (docs/review.md, "Drawn notes"): the director circles a prop on shot 1 and draws an arrow, the
 * thread shows the marked-up frame the server drew; a client on a phone, through the review link, circles something
 * on shot 2 with a finger-sized pad; the team's canvas receives the client's marks as data.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;
const PHONE = { width: 390, height: 844 };
const NOTES = '/api/v2/projects/demo/canvases/notes';

/** Drags across the pad's frame from one point to another (fractions of its width and height). */
async function drag(surface: Locator, page: Page, from: [number, number], to: [number, number]): Promise<void> {
  const box = (await surface.boundingBox())!;
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
  await page.mouse.down();
  for (let step = 1; step <= 8; step++)
    await page.mouse.move(
      box.x + box.width * (from[0] + ((to[0] - from[0]) * step) / 8),
      box.y + box.height * (from[1] + ((to[1] - from[1]) * step) / 8),
    );
  await page.mouse.up();
}

/** Waits until a picture has loaded, and answers its natural width (0 if it failed). */
const loadedWidth = (picture: Locator) =>
  picture.evaluate(
    (element) =>
      new Promise<number>((resolve) => {
        const image = element as unknown as { complete: boolean; naturalWidth: number; onload: unknown };
        if (image.complete) resolve(image.naturalWidth);
        else image.onload = () => resolve(image.naturalWidth);
      }),
  );

describe('the web canvas: drawn notes on a frame', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await server.store.projects.createCanvas('demo', 'notes', false);
    const editor = await projectToken(server.store, 'demo', 'editor');
    const form = new FormData();
    for (const [index, colour] of ['#285aa0', '#3c8c50'].entries()) {
      const bytes = await sharp({ create: { width: 640, height: 360, channels: 3, background: colour } })
        .png()
        .toBuffer();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `shot-${index + 1}.png`);
    }
    const uploaded = await fetch(`${server.url}/api/v2/projects/demo/canvases/notes/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}` },
      body: form,
    });
    const urls = UploadReceipt.parse(await uploaded.json()).uploads.map((upload) => upload.url);
    await server.store.writes.createNode(
      { projectId: 'demo', canvasId: 'notes', clientSaveId: null, authorization: SYSTEM_WRITE, baseRevision: 0 },
      CanvasNode.parse({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: {
          title: 'Harbour',
          aspectRatio: '16:9',
          frames: urls.map((url, index) => ({
            id: `s${index + 1}`,
            number: String(index + 1),
            imageUrl: url,
            action: index === 0 ? 'Mara at the rail.' : 'The lamp turns.',
            durationMs: 3000,
          })),
        },
      }),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the director circles a prop and draws an arrow; a client on a phone draws on shot 2 through the link', async () => {
    const director = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'notes' });
    try {
      await director.page.locator('.feed-live').waitFor();
      await director.page.getByRole('tab', { name: 'Comments' }).click();
      const panel = director.page.getByRole('region', { name: 'Comments' });
      const compose = panel.getByRole('form', { name: 'New comment thread' });
      await chooseOption(compose, 'On', { value: 'board' });
      await chooseOption(compose, 'Shot', { value: 's1' });
      await compose.getByRole('button', { name: 'Draw on the frame' }).click();
      const pad = compose.getByRole('group', { name: 'Draw on the frame' });
      const surface = pad.locator('.markup-surface');
      await pad.getByRole('button', { name: 'Circle' }).click();
      await pad.getByRole('button', { name: 'Red' }).click();
      await drag(surface, director.page, [0.4, 0.3], [0.6, 0.7]);
      await pad.getByRole('button', { name: 'Arrow' }).click();
      await pad.getByRole('button', { name: 'Yellow' }).click();
      await drag(surface, director.page, [0.1, 0.9], [0.38, 0.55]);
      // A stray line, taken back with Undo mark.
      await pad.getByRole('button', { name: 'Line' }).click();
      await drag(surface, director.page, [0.8, 0.1], [0.9, 0.2]);
      await expect.poll(() => surface.getAttribute('data-marks')).toBe('3');
      await pad.getByRole('button', { name: 'Undo mark' }).click();
      await expect.poll(() => surface.getAttribute('data-marks')).toBe('2');
      expect(await seriousFindings(director.page)).toEqual([]);
      await screenshot(director.page, 'drawn-note-pad');
      await compose.getByLabel('Comment', { exact: true }).fill('This crate, smaller; Mara enters from here.');
      await compose.getByLabel(/^Share with the client/).check();
      await compose.getByRole('button', { name: 'Comment', exact: true }).click();

      const thread = panel.locator('.thread').filter({ hasText: 'This crate, smaller' });
      const marked = thread.locator('.comment-markup img');
      await marked.waitFor();
      expect(await marked.getAttribute('alt')).toMatch(/drawn note \(2 marks\)/);
      // The server drew it: a 16:9 frame 1,280 px across.
      expect(await loadedWidth(marked)).toBe(1280);
      const saved = ThreadList.parse(
        await director.page.evaluate(async () => (await fetch('/api/v2/projects/demo/canvases/notes/threads')).json()),
      );
      const note = saved.threads[0]!.comments[0]!.markup;
      expect(note.map((mark) => [mark.tool, mark.colour])).toEqual([
        ['ellipse', '#e53935'],
        ['arrow', '#ffeb3b'],
      ]);
      const [x0, y0, x1, y1] = note[0]!.points;
      expect(Math.abs(x0! - 0.4)).toBeLessThan(0.02);
      expect(Math.abs(y0! - 0.3)).toBeLessThan(0.02);
      expect(Math.abs(x1! - 0.6)).toBeLessThan(0.02);
      expect(Math.abs(y1! - 0.7)).toBeLessThan(0.02);
      await screenshot(director.page, 'drawn-note-thread');

      // A review link for the client, open for comments.
      await director.page.getByRole('tab', { name: 'Exports' }).click();
      const share = director.page.getByRole('form', { name: 'New share link' });
      await chooseOption(share, 'Show', { value: 'board' });
      await chooseOption(share, 'Review', 'Guests can comment');
      await share.getByRole('button', { name: 'Make a share link' }).click();
      const url = await director.page.getByLabel('The link (shown once: copy it now)').inputValue();

      const client = await openLink(browser, url, PHONE);
      try {
        await client.page.getByRole('heading', { name: 'Harbour' }).waitFor();
        // The director's note reaches the client drawn on its frame.
        const theirs = client.page.locator('.comment-markup img').first();
        await theirs.waitFor();
        expect(await loadedWidth(theirs)).toBe(1280);
        const join = client.page.getByRole('form', { name: 'Comment as a guest' });
        await join.getByLabel('Your name, to comment').fill('Kim');
        await join.getByRole('button', { name: 'Start commenting' }).click();
        await client.page.getByText('Commenting as').waitFor();
        const shot2 = client.page.getByRole('region', { name: 'Comments on shot 2' });
        await shot2.getByRole('button', { name: 'Draw on it' }).click();
        const clientPad = shot2.getByRole('group', { name: 'Draw on the frame' });
        const clientSurface = clientPad.locator('.markup-surface');
        await clientSurface.scrollIntoViewIfNeeded();
        const box = (await clientSurface.boundingBox())!;
        // The pad fits the phone's screen.
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
        await clientPad.getByRole('button', { name: 'Circle' }).click();
        await drag(clientSurface, client.page, [0.2, 0.2], [0.5, 0.6]);
        await expect.poll(() => clientSurface.getAttribute('data-marks')).toBe('1');
        await shot2.getByLabel('Comment on shot 2').fill('The lamp: bigger, please.');
        await shot2.getByRole('button', { name: 'Comment', exact: true }).click();
        const clientNote = shot2
          .locator('.comment')
          .filter({ hasText: 'The lamp: bigger' })
          .locator('.comment-markup img');
        await clientNote.waitFor();
        expect(await loadedWidth(clientNote)).toBe(1280);
        expect(await seriousFindings(client.page)).toEqual([]);
        await screenshot(client.page, 'drawn-note-client-phone');
      } finally {
        await client.context.close();
      }
      // The team's page receives the client's marks live.
      await director.page.getByRole('tab', { name: 'Comments' }).click();
      const fromClient = panel.locator('.thread').filter({ hasText: 'The lamp: bigger' });
      await fromClient.locator('.comment-markup img').waitFor();
    } finally {
      await director.context.close();
    }
  });

  /** An export of the board made with a token, once it has finished. */
  async function exported(kind: string, options: Record<string, unknown> = {}): Promise<ExportView> {
    const token = await projectToken(server.store, 'demo', 'editor');
    const made = await fetch(`${server.url}${NOTES}/exports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind, node_id: 'board', options }),
    });
    expect(made.status).toBe(201);
    const { export_id } = ExportView.parse(await made.json());
    return waitFor(
      async () =>
        ExportView.parse(
          await (
            await fetch(`${server.url}${NOTES}/exports/${export_id}`, { headers: { authorization: `Bearer ${token}` } })
          ).json(),
        ),
      (view) => view.status === 'succeeded' || view.status === 'failed',
      120_000,
    );
  }

  it('a client on a phone plays the animatic, leaves a range note 00:00:04:12 → 00:00:05:03 with a circle, and the editor finds it in the FCP XML', async () => {
    const animatic = await exported('animatic', { resolution: '720p', frame_rate: '24' });
    expect(animatic.status).toBe('succeeded');
    const director = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'notes' });
    try {
      const made = await director.page.evaluate(
        async ({ path, exportId }) => {
          const response = await fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-requested-by': 'canvas-mcp' },
            body: JSON.stringify({ node_id: 'board', review: 'comment', downloads: [exportId] }),
          });
          return response.json() as Promise<unknown>;
        },
        { path: `${NOTES}/share-links`, exportId: animatic.export_id },
      );
      const url = ShareLinkView.parse(made).url!;
      const client = await openLink(browser, url, PHONE);
      try {
        const page = client.page;
        const player = page.getByRole('region', { name: 'Animatic of Harbour' });
        await player.waitFor();
        // The client sees each shot's fields, not only its picture.
        const fields = page.getByRole('definition').filter({ hasText: '3.0 s' });
        expect(await fields.count()).toBe(2);
        const join = page.getByRole('form', { name: 'Comment as a guest' });
        await join.getByLabel('Your name, to comment').fill('Kim');
        await join.getByRole('button', { name: 'Start commenting' }).click();
        await page.getByText('Commenting as').waitFor();

        const video = player.locator('video');
        await expect
          .poll(() => video.evaluate((element) => (element as unknown as { duration: number }).duration))
          .toBeGreaterThan(5.5);
        const timecode = player.getByLabel('Timecode');
        const goTo = async (frame: number, shown: string) => {
          await video.evaluate(
            (element, seconds) => {
              (element as unknown as { currentTime: number }).currentTime = seconds;
            },
            (frame + 0.5) / 24,
          );
          await expect.poll(() => timecode.textContent()).toBe(shown);
        };
        await goTo(108, '00:00:04:12');
        // One frame forward and back with the editors' keys.
        await video.focus();
        await page.keyboard.press('.');
        await expect.poll(() => timecode.textContent()).toBe('00:00:04:13');
        await page.keyboard.press(',');
        await expect.poll(() => timecode.textContent()).toBe('00:00:04:12');
        const note = player.getByRole('form', { name: 'A note on the animatic' });
        await note.getByRole('button', { name: 'Mark in' }).click();
        await goTo(123, '00:00:05:03');
        await note.getByRole('button', { name: 'Mark out' }).click();
        await note.getByText('From 00:00:04:12 to 00:00:05:03 · 24 fps').waitFor();
        await note.getByRole('button', { name: 'Draw on this frame' }).click();
        const pad = note.getByRole('group', { name: 'Draw on the frame' });
        await pad.getByRole('button', { name: 'Circle' }).click();
        await drag(pad.locator('.markup-surface'), page, [0.35, 0.3], [0.65, 0.7]);
        await expect.poll(() => pad.locator('.markup-surface').getAttribute('data-marks')).toBe('1');
        await note.getByLabel('Note on the animatic').fill('Hold here longer; this lamp, bigger.');
        await note.getByRole('button', { name: 'Leave the note' }).click();
        // The note is on the strip as a range, and in the board's threads with its timecodes.
        await player.locator('.film-mark.film-range').waitFor();
        const thread = page.locator('.thread').filter({ hasText: 'Hold here longer' });
        await thread
          .locator('.thread-place')
          .filter({ hasText: /at 00:00:04:12 → 00:00:05:03 \(24 fps\) of the animatic/ })
          .waitFor();
        expect(await loadedWidth(thread.locator('.comment-markup img'))).toBe(1280);
        expect(await seriousFindings(page)).toEqual([]);
        await screenshot(page, 'client-animatic-phone');
      } finally {
        await client.context.close();
      }
      const saved = ThreadList.parse(
        await director.page.evaluate(async (path) => (await fetch(`${path}/threads`)).json(), NOTES),
      );
      const range = saved.threads.find((each) => each.comments[0]?.body.startsWith('Hold here longer'))!;
      expect(range.audience).toBe('client');
      expect(range.anchor).toMatchObject({ on: 'animatic', frame: 108, frame_out: 123, rate: '24' });
      expect(range.comments[0]!.markup.map((mark) => mark.tool)).toEqual(['ellipse']);
    } finally {
      await director.context.close();
    }

    // The editor's FCP 7 XML carries the client's note as a marker on frame 00:00:04:12 of the sequence.
    const xml = await exported('fcp_xml', { frame_rate: '24' });
    expect(xml.status).toBe('succeeded');
    const text = await (await fetch(new URL(xml.file!.url, server.url))).text();
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'marker' }).parse(text) as {
      xmeml: { sequence: { marker?: Array<{ name: string; comment: string; in: number; out: number }> } };
    };
    const marker = parsed.xmeml.sequence.marker?.find((each) => String(each.comment).includes('Hold here longer'));
    expect(marker).toBeDefined();
    expect(Number(marker!.in)).toBe(108);
  });
});
