import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, RoomEvent } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, openLink, screenshot, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { openEvents } from '../support/sse.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * The review room in Chromium (docs/review.md, "The review room"): the director presents a board to everyone; two
 * members on the canvas (in browser contexts of their own) and a client on a review link follow: each sees the
 * director's shot, play and pause, and only today's shots; one steps away to browse on their own and Rejoin brings
 * them back to the director's shot; ending the room ends it for all. The guest's page hears the room alone: its room
 * stream carries only the rooms of its board (no thread, comment or person), and the page opens no change feed.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;
const CANVAS = { projectId: 'film', canvasId: 'harbour' };
const DIRECTOR = { issuer: 'canvas-mcp', subject: 'director' };
const ANA = { issuer: 'canvas-mcp', subject: 'ana' };
const BEN = { issuer: 'canvas-mcp', subject: 'ben' };
const TEAM_SECRET = 'Between us: the fog shot is over budget.';
const CLIENT_NOTE = 'For the client: the lamp will be warmer.';

const shots = ['Fog over the bay', 'The keeper climbs', 'The lamp', 'Mara looks up', 'The boat leaves'].map(
  (action, index) => ({ id: `s${index + 1}`, imageUrl: null, number: String(index + 1), action, durationMs: 1500 }),
);

describe('the review room in Chromium: a presenter, two members and a guest', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { rateLimitPerMinute: 1_000_000 });
    const { store } = server;
    await store.projects.createWorkspace('studio');
    await store.projects.createProject('film', 'studio');
    await store.projects.createCanvas('film', 'harbour', false);
    await store.writes.createNode(
      { ...CANVAS, baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
      CanvasNode.parse({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: { title: 'Opening', aspectRatio: '16:9', frames: shots },
      }),
    );
    await store.projects.addMember('film', DIRECTOR, 'owner');
    await store.projects.addMember('film', ANA, 'editor');
    await store.projects.addMember('film', BEN, 'viewer');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A REST call from a signed-in page, with its session. */
  const fromPage = (page: Page, method: string, path: string, body: unknown) =>
    page.evaluate(
      async ({ method: verb, path: url, body: json }) => {
        const response = await fetch(url, {
          method: verb,
          headers: { 'content-type': 'application/json', 'x-requested-by': 'canvas-mcp' },
          body: JSON.stringify(json),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      },
      { method, path, body },
    );

  const present = (page: Page) => page.getByRole('dialog', { name: 'Present Opening' });
  const room = (page: Page) => page.locator('.present-room');
  const inRoom = (page: Page, state: 'presenting' | 'following' | 'away' | 'open' | 'none') =>
    page.locator(`.present-room[data-room="${state}"]`).waitFor({ timeout: 10_000 });
  const waitShot = (page: Page, number: string) =>
    page.locator(`.present[data-shot="${number}"]`).waitFor({ timeout: 10_000 });
  const waitPlaying = (page: Page, playing: boolean) =>
    page.locator(`.present[data-playing="${playing}"]`).waitFor({ timeout: 10_000 });
  /** The page's banner names whoever presents the board; Follow opens Present in step with them. */
  const follow = async (page: Page, presenter: string) => {
    const banner = page.getByRole('region', { name: 'Review room' });
    await banner.locator('.room-banner-line', { hasText: `${presenter} is presenting Opening` }).waitFor();
    await banner.getByRole('button', { name: 'Follow' }).click();
    await inRoom(page, 'following');
  };

  it('keeps two members and a guest in step with the presenter, lets one step away and rejoin, and tells the guest nothing else', async () => {
    const director = await signIn(browser, server, DIRECTOR, CANVAS);
    const ana = await signIn(browser, server, ANA, CANVAS);
    const ben = await signIn(browser, server, BEN, CANVAS);
    const pages: Array<{ page: Page; errors: string[]; close(): Promise<void> }> = [];
    for (const each of [director, ana, ben]) pages.push({ ...each, close: () => each.context.close() });
    try {
      for (const { page } of pages) await page.locator('.react-flow__node[data-id="board"]').waitFor();
      // A thread of the team's and one shared with the client: neither may reach the guest's room stream.
      for (const [body, audience] of [
        [TEAM_SECRET, 'team'],
        [CLIENT_NOTE, 'client'],
      ] as const) {
        const thread = await fromPage(director.page, 'POST', '/api/v2/projects/film/canvases/harbour/threads', {
          node_id: 'board',
          shot_id: 's1',
          body,
          audience,
        });
        expect(thread.status).toBe(201);
      }
      const link = await fromPage(director.page, 'POST', '/api/v2/projects/film/canvases/harbour/share-links', {
        node_id: 'board',
        expires_in_days: 7,
        downloads: [],
        review: 'comment',
      });
      expect(link.status).toBe(201);
      const shareUrl = String(link.body.url);
      const secret = shareUrl.split('/share/')[1]!;

      // The guest opens the link's page; what a guest's page hears is read beside it, off the same stream.
      const guest = await openLink(browser, shareUrl);
      pages.push({ ...guest, close: () => guest.context.close() });
      const guestRequests: string[] = [];
      guest.page.on('request', (request) => guestRequests.push(new URL(request.url()).pathname));
      // Again, with every request of the page's own seen.
      await guest.page.reload();
      await guest.page.getByRole('heading', { name: 'Opening' }).waitFor();
      const guestStream = await openEvents(`${server.url}/api/v1/shared/${secret}/room`, {});

      // The director presents the board to everyone.
      await director.page.getByRole('button', { name: 'Present', exact: true }).click();
      await waitShot(director.page, '1');
      await room(director.page).getByRole('button', { name: 'Present to everyone' }).click();
      await inRoom(director.page, 'presenting');
      await room(director.page).getByText('Presenting Opening to everyone').waitFor();

      // Both members and the guest see the banner, follow, and land on the director's shot.
      await director.page.keyboard.press('ArrowRight');
      await waitShot(director.page, '2');
      for (const [page, presenter] of [
        [ana.page, 'director'],
        [ben.page, 'director'],
        [guest.page, 'Team member'],
      ] as const) {
        await follow(page, presenter);
        await waitShot(page, '2');
      }
      await screenshot(guest.page, 'review-room-guest');

      // Shot changes reach everyone.
      await director.page.keyboard.press('ArrowRight');
      for (const page of [director.page, ana.page, ben.page, guest.page]) await waitShot(page, '3');

      // Ben steps away to browse on his own: the director's next shot does not move him; Rejoin brings him to it.
      await ben.page.keyboard.press('ArrowLeft');
      await waitShot(ben.page, '2');
      await inRoom(ben.page, 'away');
      await director.page.keyboard.press('ArrowRight');
      for (const page of [ana.page, guest.page]) await waitShot(page, '4');
      await waitShot(ben.page, '2');
      await room(ben.page).getByRole('button', { name: 'Rejoin' }).click();
      await waitShot(ben.page, '4');

      // Today's shots: the director leaves shot 5 out and puts shot 1 last; everyone steps through those alone.
      await present(director.page).getByRole('button', { name: "Today's shots" }).click();
      const picker = director.page.getByRole('dialog', { name: "Today's shots" });
      await picker.getByRole('checkbox', { name: /^Shot 5 / }).uncheck();
      await picker.getByRole('button', { name: 'Shot 1 later' }).click();
      await picker.getByRole('button', { name: 'Shot 1 later' }).click();
      await picker.getByRole('button', { name: 'Shot 1 later' }).click();
      await picker.getByRole('button', { name: 'Done' }).click();
      // Shot 4 is now the last but one of 2, 3, 4, 1.
      for (const page of [director.page, ana.page, ben.page, guest.page])
        await present(page).getByText('Shot 4 · 3 of 4 chosen').waitFor();
      await director.page.keyboard.press('ArrowRight');
      for (const page of [director.page, ana.page, ben.page, guest.page]) await waitShot(page, '1');
      await director.page.keyboard.press('ArrowRight');
      await waitShot(director.page, '1');

      // Play steps through today's shots at their durations; pause stops everyone where the director is.
      await director.page.keyboard.press('Home');
      for (const page of [director.page, ana.page, ben.page, guest.page]) await waitShot(page, '2');
      await present(director.page).getByRole('button', { name: 'Play', exact: true }).click();
      for (const page of [ana.page, ben.page, guest.page]) await waitPlaying(page, true);
      for (const page of [director.page, ana.page, ben.page, guest.page]) await waitShot(page, '3');
      await present(director.page).getByRole('button', { name: 'Pause' }).click();
      const pausedAt = await director.page.locator('.present').getAttribute('data-shot');
      for (const page of [ana.page, ben.page, guest.page]) {
        await waitPlaying(page, false);
        await waitShot(page, pausedAt!);
      }

      // The guest's stream: rooms of its board alone, with the presenter as "Team member"; no thread, no person.
      const heard = guestStream.events.map((event) => [event.event, RoomEvent.parse(event.data)] as const);
      expect(heard.length).toBeGreaterThan(5);
      expect(heard.every(([kind, event]) => kind === 'room' && event.board_node_id === 'board')).toBe(true);
      expect(new Set(heard.map(([, event]) => event.room?.presenter.name))).toEqual(new Set(['Team member']));
      const wire = JSON.stringify(guestStream.events);
      for (const never of [TEAM_SECRET, CLIENT_NOTE, 'director', 'canvas-mcp', 'thread', 'comment'])
        expect(wire).not.toContain(never);
      // The guest's page reads the link and its room stream, never the canvas's feed or API.
      expect(guestRequests.filter((path) => path.startsWith('/api/v2/'))).toEqual([]);
      expect(guestRequests.some((path) => path === `/api/v1/shared/${secret}/room`)).toBe(true);
      expect(await seriousFindings(guest.page)).toEqual([]);
      await screenshot(director.page, 'review-room-presenter');

      // The director ends the room: everyone is told, and nobody follows any more.
      await room(director.page).getByRole('button', { name: 'End for everyone' }).click();
      for (const [page, presenter] of [
        [ana.page, 'director'],
        [ben.page, 'director'],
        [guest.page, 'Team member'],
      ] as const) {
        await room(page).getByText(`${presenter} stopped presenting.`).waitFor();
        await inRoom(page, 'none');
      }
      await guestStream.waitFor((event) => event.event === 'room' && RoomEvent.parse(event.data).room === null);
      guestStream.close();
      for (const { errors } of pages) expect(errors).toEqual([]);
    } finally {
      for (const each of pages) await each.close();
    }
  }, 120_000);
});
