import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, UploadReceipt } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { card, launchBrowser, openLink, screenshot, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { ffmpegFixture } from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';
import { chooseOption, chosenValue } from '../support/controls.js';

/**
 * Review in Chromium: the director (an owner) comments on shot 4 of a board with a pin on its picture, mentioning the
 * artist; the artist (an editor, in a second browser) sees the thread arrive live, replies and resolves it, and finds
 * the mention in their inbox; the director approves the board and the shot, and an edit of the shot afterwards shows
 * "Changed since approval"; a guest of a review link (no account, no session) gives a name, comments on a shot, edits
 * their comment, and is refused any edit of the canvas. Axe checks the Comments panel, the inbox and the guest's page.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;
const ARTIST = { issuer: 'canvas-mcp', subject: 'artist' } as const;
const write = { projectId: 'demo', canvasId: 'review', clientSaveId: null, authorization: SYSTEM_WRITE };

describe('the web canvas: comments, approval, the inbox and guest review links', () => {
  let server: TestServer;
  let browser: Browser;

  /** A card put on the review canvas at its current revision, as a system write. */
  async function addToReviewCanvas(node: unknown): Promise<void> {
    await server.store.writes.createNode(
      { ...write, baseRevision: (await server.store.layout.readCanvas('demo', 'review'))!.revision },
      CanvasNode.parse(node),
    );
  }

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await server.store.projects.createCanvas('demo', 'review', false);
    await server.store.projects.addMember('demo', ARTIST, 'editor');
    const editor = await projectToken(server.store, 'demo', 'editor');
    const form = new FormData();
    for (const [index, [r, g, b]] of (
      [
        [230, 160, 90],
        [40, 110, 170],
        [20, 30, 60],
        [120, 170, 120],
        [200, 90, 110],
      ] as const
    ).entries()) {
      // A horizon across each picture, so a pin has something to point at.
      const bytes = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r, g, b } } })
        .composite([
          {
            input: await sharp({ create: { width: 640, height: 120, channels: 3, background: '#f1f3f5' } })
              .png()
              .toBuffer(),
            top: 240,
            left: 0,
          },
        ])
        .png()
        .toBuffer();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `shot-${index + 1}.png`);
    }
    const uploaded = await fetch(`${server.url}/api/v2/projects/demo/canvases/review/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}` },
      body: form,
    });
    const urls = UploadReceipt.parse(await uploaded.json()).uploads.map((upload) => upload.url);
    const words = [
      'Dawn over the harbour.',
      'Mara runs down the pier.',
      'The boat slips its moorings.',
      'Mara on the horizon, small.',
      'Night: the lighthouse turns.',
    ];
    await server.store.writes.createNode(
      { ...write, baseRevision: 0 },
      CanvasNode.parse({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: {
          title: 'Opening',
          columns: 3,
          frames: urls.map((url, index) => ({
            id: `s${index + 1}`,
            number: String(index + 1),
            imageUrl: url,
            action: words[index],
            durationMs: 2000,
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

  const openComments = async (page: Page) => {
    await page.getByRole('tab', { name: 'Comments' }).click();
    return page.getByRole('region', { name: 'Comments' });
  };

  /** Pins the new thread at a point of a picture on a card (fractions across and down); answers the point placed. */
  const pinOn = async (compose: Locator, picture: Locator, across: number, down: number) => {
    await compose.getByRole('button', { name: 'Pin a point' }).click();
    const box = (await picture.boundingBox())!;
    await picture.click({ position: { x: box.width * across, y: box.height * down } });
    const pinned = compose.getByText(/^Pinned at \d+% across, \d+% down/);
    await pinned.waitFor();
    const [, x, y] = /Pinned at (\d+)% across, (\d+)% down/.exec((await pinned.textContent())!)!.map(Number);
    expect(Math.abs(x! - across * 100)).toBeLessThanOrEqual(2);
    expect(Math.abs(y! - down * 100)).toBeLessThanOrEqual(2);
    return { across: x!, down: y! };
  };

  it('comments with a pin, answers live, approves, marks a change, fills the inbox, and takes a guest’s comment', async () => {
    const director = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'review' });
    const artist = await signIn(browser, server, ARTIST, { projectId: 'demo', canvasId: 'review' });
    try {
      await director.page.locator('.feed-live').waitFor();
      await artist.page.locator('.feed-live').waitFor();
      // Both pages are live before the thread exists: the artist's sees it arrive through the feed.
      await card(artist.page, 'board').locator('figure[data-shot-id="s4"] img').waitFor();

      // The director starts a thread on shot 4 of the board, pinned on the horizon of its picture.
      const panel = await openComments(director.page);
      const compose = panel.getByRole('form', { name: 'New comment thread' });
      await chooseOption(compose, 'On', { value: 'board' });
      await chooseOption(compose, 'Shot', { value: 's4' });
      const picture = card(director.page, 'board').locator('figure[data-shot-id="s4"] img');
      const { across, down } = await pinOn(compose, picture, 0.25, 0.7);
      await compose.getByLabel('Comment', { exact: true }).fill('@artist the horizon tilts here: can we level it?');
      // Shared with the client: the guest of the review link below sees it (a team thread they would not).
      await compose.getByLabel(/^Share with the client/).check();
      await compose.getByRole('button', { name: 'Comment', exact: true }).click();
      const thread = panel.locator('.thread').filter({ hasText: 'the horizon tilts here' });
      await thread
        .getByText(`Opening, shot 4 · pinned at ${across}% across, ${down}% down · shared with the client`, {
          exact: true,
        })
        .waitFor();
      await card(director.page, 'board').locator('figure[data-shot-id="s4"] .pin').waitFor();

      // The artist's page shows the count on the card and on the shot without a reload.
      await card(artist.page, 'board').getByRole('img', { name: '1 open comment thread' }).first().waitFor();
      await artist.page.getByRole('button', { name: 'Shot list' }).click();
      await artist.page.getByRole('button', { name: 'Comment on shot 4 (1 open comment thread)' }).waitFor();
      // Its inbox has the mention, unread.
      await artist.page.getByRole('button', { name: 'Inbox, 1 unread' }).click();
      const inbox = artist.page.getByRole('region', { name: 'Inbox notifications' });
      const mention = inbox.locator('[data-kind="mention"]');
      await mention.waitFor();
      expect(await mention.textContent()).toMatch(
        /demo-owner mentioned you on Opening, shot 4: @artist the horizon tilts here/,
      );
      expect(await mention.getAttribute('class')).toContain('inbox-item-unread');
      expect(await seriousFindings(artist.page)).toEqual([]);
      await screenshot(artist.page, 'review-inbox');
      // Opening it shows the thread in the Comments tab, and the mention is read.
      await mention.click();
      const artistPanel = artist.page.getByRole('region', { name: 'Comments' });
      const theirs = artistPanel.locator('.thread-focused').filter({ hasText: 'the horizon tilts here' });
      await theirs.waitFor();
      await artist.page.getByRole('button', { name: 'Inbox', exact: true }).waitFor();

      // The artist replies; the director sees the reply arrive.
      await theirs.getByLabel(/^Reply to the thread on Opening, shot 4/).fill('Levelled it in the new take.');
      await theirs.getByRole('button', { name: 'Reply' }).click();
      await thread.getByText('Levelled it in the new take.').waitFor();
      expect(await thread.locator('.comment-author').allTextContents()).toEqual(['demo-owner', 'artist']);
      // Comment bodies are text, never markup.
      await compose.getByLabel('Comment', { exact: true }).fill('<b>Hold shot 2</b> a beat longer?');
      await chooseOption(compose, 'On', { value: '' });
      await compose.getByRole('button', { name: 'Comment', exact: true }).click();
      const onCanvas = panel.locator('.thread').filter({ hasText: '<b>Hold shot 2</b> a beat longer?' });
      await onCanvas.getByText('Canvas', { exact: true }).waitFor();
      expect(await onCanvas.locator('b').count()).toBe(0);
      expect(await seriousFindings(director.page)).toEqual([]);
      await screenshot(director.page, 'review-comments');

      // The artist edits their reply, then resolves the thread: the director's page follows.
      const reply = theirs.locator('.comment').filter({ hasText: 'Levelled it' });
      await reply.getByRole('button', { name: 'Edit' }).click();
      await reply.getByLabel('Edit your comment').fill('Levelled it in take 2.');
      await reply.getByRole('button', { name: 'Save' }).click();
      await thread.getByText('Levelled it in take 2.').waitFor();
      await thread.locator('.comment').filter({ hasText: 'take 2' }).getByText('edited').waitFor();
      // The director's own comment is theirs to edit, the artist's is not.
      expect(await thread.locator('.comment').nth(1).getByRole('button', { name: 'Edit' }).count()).toBe(0);
      await theirs.getByRole('button', { name: 'Resolve' }).click();
      // Open is the director's filter: the resolved thread leaves it, and shows under Resolved.
      await thread.waitFor({ state: 'detached' });
      await panel.getByRole('button', { name: 'Resolved' }).click();
      await thread.locator('.chip', { hasText: 'Resolved' }).waitFor();
      await thread.getByRole('button', { name: 'Reopen' }).waitFor();
      await card(director.page, 'board').locator('figure[data-shot-id="s4"] .pin').waitFor({ state: 'detached' });

      // The artist asks the director to approve the board; the director's inbox has the request.
      await artist.page.getByRole('button', { name: 'Request approval' }).click();
      const request = artist.page.getByRole('form', { name: 'Request approval' });
      await request.getByLabel('demo-owner').check();
      await request.getByLabel('Note').fill('Ready for a look');
      await request.getByRole('button', { name: 'Send the request' }).click();
      await request.waitFor({ state: 'detached' });
      await director.page.getByRole('button', { name: /^Inbox, \d+ unread$/ }).waitFor();

      // The director approves the board and shot 4 in the shot list.
      await director.page.getByRole('button', { name: 'Shot list' }).click();
      const shotList = director.page.getByRole('region', { name: 'Shot list' });
      const boardState = shotList.getByRole('combobox', { name: 'Review state of the board Opening' });
      await expect.poll(() => chosenValue(boardState)).toBe('in_review');
      await chooseOption(boardState, null, { value: 'approved' });
      await chooseOption(shotList, 'Review state of shot 4', { value: 'approved' });
      await card(director.page, 'board').locator('.card-review [data-review-state="approved"]').waitFor();
      await card(director.page, 'board').getByRole('img', { name: 'Shot approved' }).waitFor();
      // The artist, an editor, sees the states and may not set them (owners decide unless they allow editors).
      const artistRow = artist.page.locator('tr[data-shot-id="s4"]');
      await artistRow.locator('[data-review-state="approved"]').waitFor();
      expect(await artistRow.getByLabel('Review state of shot 4').count()).toBe(0);
      // The director lets editors approve: the artist's open page offers the control at once, and takes it back.
      const editorsMayApprove = (await openComments(director.page)).getByLabel('Editors may approve');
      await editorsMayApprove.check();
      await artistRow.getByLabel('Review state of shot 4').waitFor();
      await editorsMayApprove.uncheck();
      await artistRow.getByLabel('Review state of shot 4').waitFor({ state: 'detached' });

      // A change afterwards: shot 4's action. The approval stands for what was approved, and says it changed.
      expect(await shotList.getByText('Changed since approval').count()).toBe(0);
      const action = shotList.getByLabel('Action of shot 4');
      await action.fill('Mara on the horizon, level now.');
      await action.press('Enter');
      await shotList.locator('.board-review').getByText('Changed since approval').waitFor({ timeout: 15_000 });
      await shotList.locator('tr[data-shot-id="s4"]').getByText('Changed since approval').waitFor();
      await card(director.page, 'board').locator('.card-review').getByText('Changed since approval').waitFor();
      await artistRow.getByText('Changed since approval').waitFor();
      await director.page.getByRole('button', { name: 'Shot list' }).click();

      // A review link for guests: the board with its comments, open for comments.
      await director.page.getByRole('tab', { name: 'Exports' }).click();
      const share = director.page.getByRole('form', { name: 'New share link' });
      await chooseOption(share, 'Show', { value: 'board' });
      await chooseOption(share, 'Review', 'Guests can comment');
      await share.getByRole('button', { name: 'Make a share link' }).click();
      const url = await director.page.getByLabel('The link (shown once: copy it now)').inputValue();
      // And a link that only shows the comments.
      await chooseOption(share, 'Review', 'Guests can read comments');
      await share.getByRole('button', { name: 'Make a share link' }).click();
      await expect
        .poll(() => director.page.getByLabel('The link (shown once: copy it now)').inputValue())
        .not.toBe(url);
      const readOnly = await director.page.getByLabel('The link (shown once: copy it now)').inputValue();

      const guest = await openLink(browser, url);
      try {
        await guest.page.getByRole('heading', { name: 'Opening' }).waitFor();
        // The threads of the board show, the resolved one too; no control edits the board.
        await guest.page.getByText('Levelled it in take 2.').waitFor();
        expect(await guest.page.getByLabel(/^Action of shot/).count()).toBe(0);
        expect(await guest.page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
        const join = guest.page.getByRole('form', { name: 'Comment as a guest' });
        await join.getByLabel('Your name, to comment').fill('Noor');
        await join.getByRole('button', { name: 'Start commenting' }).click();
        await guest.page.getByText('Commenting as').waitFor();
        const shot2 = guest.page.getByRole('region', { name: 'Comments on shot 2' });
        await shot2.getByLabel('Comment on shot 2').fill('Love the run: keep the wide.');
        await shot2.getByRole('button', { name: 'Comment', exact: true }).click();
        const guestComment = shot2.locator('.comment').filter({ hasText: 'Love the run' });
        await guestComment.getByText('Guest: Noor').waitFor();
        await guestComment.getByRole('button', { name: 'Edit' }).click();
        await guestComment.getByLabel('Edit your comment').fill('Love the run: keep it wide.');
        await guestComment.getByRole('button', { name: 'Save' }).click();
        await shot2.getByText('Love the run: keep it wide.').waitFor();
        await shot2.getByText('edited').waitFor();
        // Others' comments are not the guest's to change.
        expect(
          await guest.page
            .locator('.comment')
            .filter({ hasText: 'take 2' })
            .getByRole('button', { name: 'Edit' })
            .count(),
        ).toBe(0);
        expect(await seriousFindings(guest.page)).toEqual([]);
        await screenshot(guest.page, 'review-guest');

        // The guest's token edits nothing of the canvas: a layout change from their page is refused.
        const token = await guest.page.evaluate(() => {
          // The page's sessionStorage (this file is compiled without the DOM's types).
          const storage = (globalThis as unknown as { sessionStorage: Record<string, string> }).sessionStorage;
          const key = Object.keys(storage).find((name) => name.startsWith('canvas-mcp.guest.'))!;
          return (JSON.parse(storage[key]!) as { token: string }).token;
        });
        const refused = await guest.page.evaluate(
          async ({ token: guestToken }) => {
            const response = await fetch('/api/v2/projects/demo/canvases/review/changes', {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'x-requested-by': 'canvas-mcp',
                'x-guest-token': guestToken,
              },
              body: JSON.stringify({
                base_revision: 1,
                client_save_id: null,
                operations: [{ op: 'delete_node', node_id: 'board' }],
              }),
            });
            return response.status;
          },
          { token },
        );
        expect([401, 403]).toContain(refused);
        // A read-only review link takes no comment, whoever asks.
        const readSecret = new URL(readOnly).pathname.split('/').pop()!;
        const joinRead = await fetch(`${server.url}/api/v1/shared/${readSecret}/guests`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Sam' }),
        });
        expect(joinRead.status).toBe(403);
        const writeRead = await fetch(`${server.url}/api/v1/shared/${readSecret}/threads`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-guest-token': token },
          body: JSON.stringify({ node_id: 'board', body: 'Sneaky' }),
        });
        expect(writeRead.status).toBe(403);
        expect(guest.errors).toEqual([]);
      } finally {
        await guest.context.close();
      }

      // The director's page has the guest's comment, live, under All.
      const directorPanel = await openComments(director.page);
      await directorPanel.getByRole('button', { name: 'All' }).click();
      await directorPanel.locator('.thread').filter({ hasText: 'keep it wide' }).getByText('Guest: Noor').waitFor();

      // From the home page, the director's inbox opens the artist's reply on its thread.
      await director.page.goto(`${server.url}/`);
      await director.page.getByRole('heading', { name: 'Your canvases' }).waitFor();
      await director.page.getByRole('button', { name: /^Inbox, \d+ unread$/ }).click();
      const directorInbox = director.page.getByRole('region', { name: 'Inbox notifications' });
      await directorInbox.locator('[data-kind="approval_request"]').waitFor();
      if (process.env.REVIEW_DEBUG) await screenshot(director.page, 'review-debug-home');
      await directorInbox.locator('[data-kind="reply"]').first().click();
      await director.page.waitForURL(/\/p\/demo\/c\/review\?thread=/);
      await director.page
        .getByRole('region', { name: 'Comments' })
        .locator('.thread-focused')
        .filter({ hasText: 'Levelled it in take 2.' })
        .waitFor();
      expect(director.errors).toEqual([]);
      expect(artist.errors).toEqual([]);
    } catch (failure) {
      if (process.env.REVIEW_DEBUG) {
        await screenshot(director.page, 'review-debug-director');
        await screenshot(artist.page, 'review-debug-artist');
      }
      throw failure;
    } finally {
      await director.context.close();
      await artist.context.close();
    }
  }, 240_000);

  it('a pin on an uploaded picture’s card shows on the card, on the point it was put on', async () => {
    const board = (await server.store.layout.readNode('demo', 'review', 'board'))!.node;
    const [, pier] = (board.data as { frames: Array<{ imageUrl: string }> }).frames;
    await addToReviewCanvas({
      id: 'still',
      type: 'uploadNode',
      position: { x: 1100, y: 0 },
      data: { fileUrl: pier!.imageUrl, fileName: 'pier.png', mimeType: 'image/png' },
    });
    const director = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'review' });
    try {
      await director.page.locator('.feed-live').waitFor();
      const compose = (await openComments(director.page)).getByRole('form', { name: 'New comment thread' });
      // The card is called by its file's name, in the form as on the card.
      await chooseOption(compose, 'On', 'pier.png');
      // While the pin is being put, the card shows its picture whole: the point clicked is a point of the picture.
      const picture = card(director.page, 'still').locator('img');
      const { across, down } = await pinOn(compose, picture, 0.6, 0.3);
      expect(await card(director.page, 'still').locator('.pinned-picture img').count()).toBe(1);
      await compose.getByLabel('Comment', { exact: true }).fill('Move the boat left of the post.');
      await compose.getByRole('button', { name: 'Comment', exact: true }).click();

      await (
        await openComments(director.page)
      )
        .locator('.thread')
        .getByText(`pier.png · pinned at ${across}% across, ${down}% down`, { exact: true })
        .waitFor();
      // The thread's pin is on the card, on that point of the picture.
      const pin = card(director.page, 'still').locator('.pin');
      await pin.waitFor();
      const [pinBox, shown] = [(await pin.boundingBox())!, (await picture.boundingBox())!];
      expect(Math.abs((pinBox.x + pinBox.width / 2 - shown.x) / shown.width - 0.6)).toBeLessThan(0.02);
      expect(Math.abs((pinBox.y + pinBox.height / 2 - shown.y) / shown.height - 0.3)).toBeLessThan(0.02);
      await screenshot(director.page, 'review-image-pin');
      expect(director.errors).toEqual([]);
    } finally {
      await director.context.close();
    }
  });

  it('a comment at a film’s moment is taken from its player, marked along the film, and the mark takes the player back there', async () => {
    const editor = await projectToken(server.store, 'demo', 'editor');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(ffmpegFixture('webm', 10))], { type: 'video/webm' }), 'take-3.webm');
    const uploaded = await fetch(`${server.url}/api/v2/projects/demo/canvases/review/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}` },
      body: form,
    });
    const [film] = UploadReceipt.parse(await uploaded.json()).uploads;
    await addToReviewCanvas({
      id: 'take',
      type: 'videoNode',
      position: { x: 1100, y: 500 },
      data: { displayName: 'Take 3', videoUrl: film!.url },
    });
    const director = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'review' });
    try {
      await director.page.locator('.feed-live').waitFor();
      const player = card(director.page, 'take').locator('video');
      await player.waitFor();
      // The director stops the film at 4 s, as the scrubber would.
      await player.evaluate(
        (video: unknown) =>
          new Promise<void>((resolve) => {
            const element = video as {
              readyState: number;
              currentTime: number;
              addEventListener(name: string, listener: () => void, options: { once: boolean }): void;
            };
            const seek = () => {
              element.addEventListener('seeked', () => resolve(), { once: true });
              element.currentTime = 4;
            };
            if (element.readyState >= 1) seek();
            else element.addEventListener('loadedmetadata', seek, { once: true });
          }),
      );
      const compose = (await openComments(director.page)).getByRole('form', { name: 'New comment thread' });
      await chooseOption(compose, 'On', 'Take 3');
      await compose.getByRole('button', { name: 'Where the film is' }).click();
      // The frame showing, in SMPTE timecode at the rate chosen (24 unless the reviewer picks another).
      expect(await compose.getByLabel('Timecode', { exact: true }).inputValue()).toBe('00:00:04:00');
      await compose.getByLabel('To (optional)').fill('00:00:06:00');
      await compose.getByLabel('Comment', { exact: true }).fill('Cut here, before she turns.');
      await compose.getByRole('button', { name: 'Comment', exact: true }).click();
      await (
        await openComments(director.page)
      )
        .locator('.thread')
        .getByText('Take 3 · at 00:00:04:00 → 00:00:06:00 (24 fps) of the film', { exact: true })
        .waitFor();
      const [stored] = await server.store.review.threads('demo', 'review', { nodeIds: ['take'] });
      expect(JSON.parse(stored!.thread.anchor!)).toMatchObject({
        frame: 96,
        frame_out: 144,
        rate: '24',
        timecode_ms: 4000,
      });

      // A span along the film from two fifths of the way (4 s of 10) to the end of its last frame (6 s and a frame).
      const mark = card(director.page, 'take').getByRole('button', {
        name: 'Comment at 00:00:04:00 → 00:00:06:00 (24 fps): Cut here, before she turns.',
      });
      await mark.waitFor();
      const strip = (await card(director.page, 'take').locator('.film-marks').boundingBox())!;
      const span = (await mark.boundingBox())!;
      expect(Math.abs((span.x - strip.x) / strip.width - 0.4)).toBeLessThan(0.03);
      expect(Math.abs(span.width / strip.width - (6 + 1 / 24 - 4) / 10)).toBeLessThan(0.03);
      await screenshot(director.page, 'review-film-mark');

      // Elsewhere in the film, the mark takes the player back to 4 s.
      await player.evaluate((video: unknown) => {
        (video as { currentTime: number }).currentTime = 9;
      });
      await mark.click();
      const timeOf = () => player.evaluate((video: unknown) => (video as { currentTime: number }).currentTime);
      await waitFor(timeOf, (time) => Math.abs(time - 4) < 0.1);

      // Frame by frame with . and , as in an editor's player: one frame at 24 fps is 41.7 ms.
      await player.focus();
      await director.page.keyboard.press('.');
      await waitFor(timeOf, (time) => Math.abs(time - 97 / 24) < 0.002);
      await director.page.keyboard.press(',');
      await director.page.keyboard.press(',');
      await waitFor(timeOf, (time) => Math.abs(time - 95 / 24) < 0.002);
      expect(director.errors).toEqual([]);
    } finally {
      await director.context.close();
    }
  });
});
