import { join } from 'node:path';
import { createAssetRecords, type AssetRecords } from './asset-records.js';
import { createTemplateStore, type TemplateStore } from './template-store.js';
import { createElementStore, type ElementStore } from './element-store.js';
import { createCheckpointStore, type CheckpointStore } from './checkpoint-store.js';
import { createExportStore, type ExportStore } from './export-store.js';
import { createShareLinkStore, type ShareLinkStore } from './share-link-store.js';
import { createRunApprovalStore, type RunApprovalStore } from './run-approval-store.js';
import { createReviewStore, type ReviewStore } from './review-store.js';
import { createChatRunStore, type ChatRunStore } from './chat-run-store.js';
import { createChatStore, type ChatStore } from './chat-store.js';
import { readServiceNote, sharedSecret, writeServiceNote } from './server-secrets.js';
import { createCanvasWrites, type CanvasCaps, type CanvasWrites } from './layout-writes/index.js';
import { createLayoutReads, type LayoutReads } from './layout-reads.js';
import { migrate, pendingMigrations } from './migrate.js';
import { openNatsBus, signalsThroughBus, type FeedBus } from './feed-bus/index.js';
import { watchOutages } from './outage-watch.js';
import type { Logger } from '../shared/logger.js';
import { createTeamStore, type TeamStore } from './team-store.js';
import { createWebhookStore, type WebhookStore } from './webhook-store.js';
import { createRunChainStore, type RunChainStore } from './run-chain-store.js';
import { createVersionReads, type VersionReads } from './version-reads.js';
import { createOAuthGrants, type OAuthGrants } from './oauth-grants.js';
import { createProjectStore, type ProjectStore } from './project-store.js';
import { createReadCache } from './read-cache.js';
import { createHistoryReads, type HistoryReads } from './history-reads.js';
import { createSessionStore, type SessionStore } from './session-store.js';
import { createPeopleEmailStore, type PeopleEmailStore } from './people-email-store.js';
import { createPeopleNameStore, type PeopleNameStore } from './people-name-store.js';
import { createPeoplePictureStore, type PeoplePictureStore } from './people-picture-store.js';
import { createDirectoryReads, type DirectoryReads } from './directory-reads.js';
import { createRunClaims, type RunClaims } from './run-claims.js';
import { createRunStore, type RunStore } from './run-store.js';
import { createStoreMetrics, type StoreMetrics } from './store-metrics.js';
import { createTokenStore, type TokenStore } from './token-store.js';
import type { SqlDialect, SqlDriver } from './sql-driver.js';
import { openSqliteDriver, type SqliteSynchronous } from './sqlite-driver.js';

/**
 * The store: one interface over two databases. Everything above it (backend services, CLI) sees only this.
 * SQLite is the zero-setup default (a file in the data dir); PostgreSQL serves many processes on one database.
 */
export interface Store {
  readonly dialect: SqlDialect;
  /** The database itself, for what is kept beside the store's records (asset chunks: src/assets/database-store.ts). */
  readonly driver: SqlDriver;
  /** A secret every server of this store shares, made by whichever needs it first (signing asset URLs). */
  sharedSecret(name: string, make?: () => string | Promise<string>): Promise<string>;
  /** The URL the last server to start announced (people open links there), or null before any did. */
  announcedUrl(): Promise<string | null>;
  announceUrl(url: string): Promise<void>;
  /** Workspaces, projects, canvases and memberships. */
  readonly projects: ProjectStore;
  /** Agent, backend and gateway tokens and their scopes. */
  readonly tokens: TokenStore;
  /** Chat runs: an agent's session on a canvas, presented by one token. */
  readonly chatRuns: ChatRunStore;
  readonly layout: LayoutReads;
  readonly writes: CanvasWrites;
  readonly runs: RunStore;
  readonly claims: RunClaims;
  /** The records of the assets runs made (where their bytes are: src/assets/). */
  readonly assets: AssetRecords;
  readonly history: HistoryReads;
  readonly sessions: SessionStore;
  /** People's e-mail addresses for sign-in links. */
  readonly emails: PeopleEmailStore;
  readonly names: PeopleNameStore;
  readonly pictures: PeoplePictureStore;
  readonly directory: DirectoryReads;
  /** The canvas chat's conversations and transcripts. */
  readonly chats: ChatStore;
  /** What people approved for OAuth clients (src/oauth/). */
  readonly grants: OAuthGrants;
  /** Projects' teams: members, invitations, the audit log. */
  readonly team: TeamStore;
  /** A project's own canvas templates. */
  readonly templates: TemplateStore;
  /** A project's elements: cast, locations, props and styles with reference pictures. */
  readonly elements: ElementStore;
  /** Named revisions of canvases to come back to. */
  readonly checkpoints: CheckpointStore;
  /** Export jobs: PDFs, animatics, shot lists and timelines made by the workers. */
  readonly exports: ExportStore;
  /** Read-only links that present boards without an account. */
  readonly shareLinks: ShareLinkStore;
  /** Paid runs of external agents waiting for a person's yes. */
  readonly runApprovals: RunApprovalStore;
  /** Comment threads, review states, inboxes and review guests. */
  readonly review: ReviewStore;
  /** Webhook endpoints and the outbox of their deliveries. */
  readonly webhooks: WebhookStore;
  /** Downstream chains ("Run from here"). */
  readonly chains: RunChainStore;
  /** Result versions: a node's succeeded runs. */
  readonly versions: VersionReads;
  /** Load of the store and its run queue (/metrics). */
  readonly metrics: StoreMetrics;
  /**
   * The feed bus (`--feed-bus`), when one is configured: canvases' signals are followed per canvas on it
   * (src/store/feed-bus/), and `listen` and `notify` go through it for the channels it carries. Null: NOTIFY.
   */
  readonly bus: FeedBus | null;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;
  /** Signals from every process (PostgreSQL NOTIFY; nothing arrives on SQLite). */
  listen(channel: string, onPayload: (payload: string) => void, onResync?: () => void): Promise<() => Promise<void>>;
  /** A number that changes whenever any process commits (SQLite), or null (PostgreSQL: use listen). */
  readVersion(): Promise<number | null>;
  pendingMigrations(): Promise<string[]>;
  close(): Promise<void>;
}

export type StoreLocation =
  | { kind: 'sqlite'; file: string; synchronous?: SqliteSynchronous }
  | { kind: 'postgres'; url: string; maxConnections?: number };

export interface OpenStoreOptions {
  clock?: () => number;
  /** Canvas size caps (docs/contract.md, "Limits"); tests lower them. */
  caps?: Partial<CanvasCaps>;
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /** Hears when the database goes away and comes back (src/store/outage-watch.ts), and the feed bus's outages. */
  logger?: Logger;
  /** `nats://…`: processes signal each other through NATS instead of PostgreSQL NOTIFY (src/store/feed-bus/). */
  feedBus?: string | undefined;
}

export function sqliteFileIn(dataDir: string): string {
  return join(dataDir, 'canvas.db');
}

export function storeOnDriver(
  driver: SqlDriver,
  clock: () => number,
  caps: Partial<CanvasCaps> = {},
  bus: FeedBus | null = null,
): Store {
  const readCache = createReadCache(driver);
  const runs = createRunStore(driver, clock);
  return {
    dialect: driver.dialect,
    driver,
    sharedSecret: (name, make) => sharedSecret(driver, name, clock, make),
    announcedUrl: () => readServiceNote(driver, 'announced_url'),
    announceUrl: (url) => writeServiceNote(driver, 'announced_url', url, clock),
    projects: createProjectStore(driver, clock, readCache),
    tokens: createTokenStore(driver, clock),
    chatRuns: createChatRunStore(driver, clock, readCache),
    layout: createLayoutReads(driver, readCache),
    writes: createCanvasWrites(driver, clock, caps),
    runs,
    chains: createRunChainStore(driver, clock, runs),
    claims: createRunClaims(driver, clock),
    assets: createAssetRecords(driver),
    history: createHistoryReads(driver),
    sessions: createSessionStore(driver, clock),
    emails: createPeopleEmailStore(driver, clock),
    names: createPeopleNameStore(driver, clock),
    pictures: createPeoplePictureStore(driver, clock),
    directory: createDirectoryReads(driver, clock),
    chats: createChatStore(driver, clock),
    grants: createOAuthGrants(driver, clock),
    team: createTeamStore(driver, clock),
    templates: createTemplateStore(driver, clock),
    elements: createElementStore(driver, clock, readCache),
    checkpoints: createCheckpointStore(driver, clock),
    exports: createExportStore(driver, clock),
    shareLinks: createShareLinkStore(driver, clock),
    runApprovals: createRunApprovalStore(driver, clock),
    review: createReviewStore(driver, clock),
    webhooks: createWebhookStore(driver, clock),
    versions: createVersionReads(driver),
    metrics: createStoreMetrics(driver),
    bus,
    async ping() {
      await driver.get('SELECT 1 AS ok');
    },
    listen: (channel, onPayload, onResync) => driver.listen(channel, onPayload, onResync),
    readVersion: () => driver.readVersion(),
    pendingMigrations: () => pendingMigrations(driver),
    close: () => driver.close(),
  };
}

/** PostgreSQL's driver (and `pg`) is loaded only for a PostgreSQL store: the embedded default never needs it. */
export async function openDriver(location: StoreLocation): Promise<SqlDriver> {
  if (location.kind === 'sqlite') return openSqliteDriver(location.file, location.synchronous);
  const { openPostgresDriver } = await import('./postgres-driver.js');
  return openPostgresDriver({ connectionString: location.url, maxConnections: location.maxConnections });
}

export async function openStore(location: StoreLocation, options: OpenStoreOptions = {}): Promise<Store> {
  const opened = await openDriver(location);
  const watched = options.logger ? watchOutages(opened, options.logger, options.clock) : opened;
  try {
    if (options.migrate ?? true) await migrate(watched);
  } catch (error) {
    await watched.close().catch(() => undefined);
    throw error;
  }
  if (!options.feedBus) return storeOnDriver(watched, options.clock ?? Date.now, options.caps);
  // pino is loaded only for this fallback: a command that opens the store without a feed bus never needs it.
  const logger = options.logger ?? (await import('../shared/logger.js')).createLogger('warn');
  const bus = await openNatsBus(options.feedBus, {
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return storeOnDriver(signalsThroughBus(watched, bus), options.clock ?? Date.now, options.caps, bus);
}
