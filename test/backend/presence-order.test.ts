import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPresence, type PersonReport, type Presence } from '../../src/backend/presence/presence.js';
import { createLogger } from '../../src/shared/logger.js';
import { openStore, type Store } from '../../src/store/store.js';
import { STORE_TARGETS, openTwoProcesses, type TestDatabase } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { IDP } from './world.js';

/**
 * A page's presence reports and its leaving can arrive out of order: two requests on two connections, or two NOTIFYs
 * sent on two database connections. Each carries the page's tab and its count; one arriving after a later one of the
 * same page, or after the page left, is ignored, here and in every other process (a person who left stayed on the
 * others' screens until their entry expired, and a cursor could lag by a heartbeat, before).
 */

const ANA = 'person:https://idp.example|ana';
const TAB = 'tab-0123456789';

function report(seq: number | null, selection: string[], tab = TAB): PersonReport {
  return { key: ANA, name: 'ana', selection, cursor: null, order: seq === null ? null : { tab, seq } };
}

describe.each(STORE_TARGETS)('presence reports in the order their page sent them: $name', (target) => {
  let database: TestDatabase;
  let store: Store;
  let presence: Presence;

  beforeEach(async () => {
    if (!target.available) return;
    database = await target.createDatabase();
    store = await openStore(database.location);
    presence = await createPresence(store, createLogger('silent'));
  });
  afterEach(async () => {
    await presence?.close();
    await store?.close();
    await database?.cleanup();
  });

  const selectionOfAna = () => presence.list('film', 'main').find((entry) => entry.key === ANA)?.selection;

  it.skipIf(!target.available)('ignores a report that arrives after a later one of the same page', () => {
    presence.report('film', 'main', report(2, ['shot-2']));
    presence.report('film', 'main', report(1, ['shot-1']));
    expect(selectionOfAna()).toEqual(['shot-2']);
    presence.report('film', 'main', report(3, ['shot-3']));
    expect(selectionOfAna()).toEqual(['shot-3']);
  });

  it.skipIf(!target.available)('does not bring back a person whose page left, for a report sent before it left', () => {
    presence.report('film', 'main', report(1, ['shot-1']));
    presence.leave('film', 'main', ANA, { tab: TAB, seq: 3 });
    presence.report('film', 'main', report(2, ['shot-2']));
    expect(selectionOfAna()).toBeUndefined();
  });

  it.skipIf(!target.available)("takes another tab's report, and a page that says no order, as they come", () => {
    presence.report('film', 'main', report(5, ['shot-5']));
    presence.report('film', 'main', report(1, ['other-tab'], 'tab-abcdefghij'));
    expect(selectionOfAna()).toEqual(['other-tab']);
    presence.report('film', 'main', report(null, ['no-order']));
    expect(selectionOfAna()).toEqual(['no-order']);
  });
});

const postgres = STORE_TARGETS[1]!;
const CHANNEL = 'canvas_presence';

describe.skipIf(!postgres.available)('presence signals that reach another process out of order', () => {
  let here: Store;
  let close: () => Promise<void>;
  let watcher: Presence;

  beforeEach(async () => {
    let elsewhere: Store;
    ({ here, elsewhere, close } = await openTwoProcesses(postgres));
    watcher = await createPresence(elsewhere, createLogger('silent'));
  });
  afterEach(async () => {
    await watcher?.close();
    await close?.();
  });

  it('keeps a page gone when its leaving arrives before the report it sent last', async () => {
    const signal = (body: Record<string, unknown>) =>
      here.driver.run('SELECT pg_notify(?, ?)', [
        CHANNEL,
        JSON.stringify({ origin: 'another-process', project: 'film', canvas: 'main', key: ANA, ...body }),
      ]);
    const held = (seq: number, selection: string[]) => ({
      held: { kind: 'person', name: 'ana', selection, cursor: null, nodeId: null, at: 0, order: { tab: TAB, seq } },
    });
    await signal(held(1, ['shot-1']));
    await waitFor(
      async () => watcher.list('film', 'main').length,
      (count) => count === 1,
    );
    // Sent in order 2, 3 (the report, then the leaving) on two connections; delivered 3, 2; then another person.
    await signal({ gone: true, order: { tab: TAB, seq: 3 } });
    await signal(held(2, ['shot-2']));
    await signal({ key: 'person:https://idp.example|bo', ...held(1, ['bo-shot']) });
    await waitFor(
      async () => watcher.list('film', 'main').map((entry) => entry.key),
      (keys) => keys.includes('person:https://idp.example|bo'),
    );
    expect(watcher.list('film', 'main').map((entry) => entry.key)).toEqual(['person:https://idp.example|bo']);
  });
});

describe('a page that gives its place in order through the REST API', () => {
  let server: TestServer;
  let cookie: string;
  const PRESENCE = '/api/v2/projects/film/canvases/main/presence';

  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!);
    await server.store.projects.createWorkspace('studio');
    await server.store.projects.createProject('film', 'studio');
    await server.store.projects.createCanvas('film', 'main', false);
    await server.store.projects.addMember('film', { issuer: IDP, subject: 'ana' }, 'editor');
    const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject: 'ana' }, { expiresInMs: 60_000 });
    ({ cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`));
  });
  afterAll(async () => server?.close());

  const asAna = (method: string, path: string, body?: unknown) =>
    api(server.url, path, {
      method,
      headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' },
      ...(body === undefined ? {} : { body }),
    });
  const issuePaths = (body: unknown) =>
    (body as { error: { details: { issues: Array<{ path: string }> } } }).error.details.issues.map(
      (issue) => issue.path,
    );

  it('takes a report and a leaving with both tab and seq', async () => {
    expect((await asAna('POST', PRESENCE, { selection: [], cursor: null, tab: TAB, seq: 1 })).status).toBe(204);
    expect((await asAna('DELETE', `${PRESENCE}?tab=${TAB}&seq=2`)).status).toBe(204);
  });

  it('refuses one of tab and seq without the other, naming the one missing', async () => {
    const report = await asAna('POST', PRESENCE, { selection: [], cursor: null, tab: TAB });
    expect(report.status).toBe(400);
    expect(issuePaths(report.body)).toEqual(['seq']);
    const leaving = await asAna('DELETE', `${PRESENCE}?seq=3`);
    expect(leaving.status).toBe(400);
    expect(issuePaths(leaving.body)).toEqual(['query.tab']);
  });

  it('refuses a tab that is not a page id, naming it', async () => {
    const leaving = await asAna('DELETE', `${PRESENCE}?tab=${encodeURIComponent("x'; --")}&seq=3`);
    expect(leaving.status).toBe(400);
    expect(issuePaths(leaving.body)).toEqual(['query.tab']);
  });
});
