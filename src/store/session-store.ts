import { z } from 'zod';
import { CanvasError } from '../shared/errors.js';
import { newId, newTokenSecret, sha256Hex } from '../shared/ids.js';
import type { Actor } from './records.js';
import { insertRow } from './row-statements.js';
import type { SqlDriver } from './sql-driver.js';

/**
 * One-time sign-in links and the sessions they open (docs/security.md, "People"). Only SHA-256 of each secret is
 * stored. A session is a person (issuer + subject), wherever the sign-in came from: a link today, OpenID Connect later.
 */

export interface LoginLinkRecord {
  person: Actor;
  projectId: string | null;
  canvasId: string | null;
}

export interface SessionRecord {
  id: string;
  person: Actor;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  endedAt: number | null;
  /** The browser it was opened in (its User-Agent, shortened), when known. */
  device: string | null;
  /** Its person asked to keep this device signed in (docs/security.md, "Remembered devices"). */
  remembered: boolean;
}

export interface SessionTimes {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, used or not. */
  absoluteMs: number;
  /** On a device its person said to remember: how long it lasts unused; each use renews it, up to a year. */
  rememberMs: number;
}

/**
 * A remembered session slides: each use moves its end to `rememberMs` from then, but never past this long after its
 * sign-in (docs/security.md, "Remembered devices"): a device left signed in is asked again at least once a year.
 */
export const REMEMBERED_AT_MOST_MS = 365 * 86_400_000;

/** What a browser says it is (its User-Agent), as a session keeps it: a remembered session answers only to it. */
export function deviceOf(userAgent: string | null | undefined): string | null {
  return userAgent ? userAgent.slice(0, 200) : null;
}

const Millis = z.coerce.number().int();
const LinkRow = z.object({
  issuer: z.string(),
  subject: z.string(),
  project_id: z.string().nullable(),
  canvas_id: z.string().nullable(),
  expires_at: Millis,
  used_at: Millis.nullable(),
});
const SessionRow = z
  .object({
    id: z.string(),
    issuer: z.string(),
    subject: z.string(),
    created_at: Millis,
    last_seen_at: Millis,
    expires_at: Millis,
    ended_at: Millis.nullable(),
    device: z.string().nullable(),
    remembered: z.coerce.number().transform((value) => value === 1),
  })
  .transform((row) => ({
    id: row.id,
    device: row.device,
    person: { issuer: row.issuer, subject: row.subject },
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
    /** Signed in on a device its person said to remember: each use renews it for `rememberMs`, up to a year. */
    remembered: row.remembered,
  }));

const SESSION_COLUMNS = 'id, issuer, subject, created_at, last_seen_at, expires_at, ended_at, device, remembered';
/** last_seen_at is written at most this often, so reading pages is not a write per request. */
const SEEN_RESOLUTION_MS = 60_000;

/** Throws, saying why, when a sign-in link cannot be used now. */
function linkRefusal(link: z.output<typeof LinkRow> | undefined, now: number): asserts link {
  if (!link) throw new CanvasError('unauthenticated', 'This sign-in link is not valid. Ask for a new one.');
  if (link.used_at !== null)
    throw new CanvasError('unauthenticated', 'This sign-in link was already used. Ask for a new one.');
  if (link.expires_at <= now)
    throw new CanvasError('unauthenticated', 'This sign-in link has expired. Ask for a new one.');
}

/** A sign-in link lasts at most this long: a link is a bearer credential sent through chat. */
export const MAX_LOGIN_LINK_MS = 7 * 24 * 3_600_000;

export function createSessionStore(driver: SqlDriver, clock: () => number) {
  return {
    /** A new one-time sign-in secret for a person; only its hash is kept. */
    async createLoginLink(
      person: Actor,
      options: { expiresInMs: number; projectId?: string | null; canvasId?: string | null },
    ): Promise<string> {
      if (!(options.expiresInMs <= MAX_LOGIN_LINK_MS)) {
        throw new CanvasError(
          'invalid_arguments',
          `A sign-in link lasts at most ${MAX_LOGIN_LINK_MS / 86_400_000} days.`,
          {
            issues: [{ path: 'expires_in', message: `must be at most ${MAX_LOGIN_LINK_MS / 1000} seconds` }],
          },
        );
      }
      const secret = newTokenSecret().replace(/^cmcp_/, 'login_');
      const now = clock();
      await driver.run(
        `INSERT INTO login_links (secret_hash, issuer, subject, project_id, canvas_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [
          sha256Hex(secret),
          person.issuer,
          person.subject,
          options.projectId ?? null,
          options.canvasId ?? null,
          now,
          now + options.expiresInMs,
        ],
      );
      return secret;
    },

    /**
     * What a sign-in link would do, without spending it (the link's page shows this before the person confirms);
     * throws unauthenticated, saying why, when it cannot be used.
     */
    async peekLoginLink(linkSecret: string): Promise<LoginLinkRecord> {
      const row = await driver.get(
        'SELECT issuer, subject, project_id, canvas_id, expires_at, used_at FROM login_links WHERE secret_hash = ?',
        [sha256Hex(linkSecret)],
      );
      const link = row ? LinkRow.parse(row) : undefined;
      linkRefusal(link, clock());
      return {
        person: { issuer: link.issuer, subject: link.subject },
        projectId: link.project_id,
        canvasId: link.canvas_id,
      };
    },

    /**
     * Spends a sign-in link (once: a second use is refused even within its lifetime) and opens a session. Returns
     * the session secret for the cookie, and where the link leads.
     */
    async signIn(
      linkSecret: string,
      times: SessionTimes,
      device: string | null = null,
      remember = false,
    ): Promise<{ sessionSecret: string; session: SessionRecord; link: LoginLinkRecord }> {
      return driver.transaction(async (tx) => {
        const now = clock();
        const row = await tx.get(
          `SELECT issuer, subject, project_id, canvas_id, expires_at, used_at FROM login_links WHERE secret_hash = ?${driver.forUpdate}`,
          [sha256Hex(linkSecret)],
        );
        const link = row ? LinkRow.parse(row) : undefined;
        linkRefusal(link, now);
        await tx.run('UPDATE login_links SET used_at = ? WHERE secret_hash = ?', [now, sha256Hex(linkSecret)]);
        const sessionSecret = newTokenSecret().replace(/^cmcp_/, 'sess_');
        const id = newId('ses_');
        await insertRow(tx, 'sessions', {
          id,
          secret_hash: sha256Hex(sessionSecret),
          issuer: link.issuer,
          subject: link.subject,
          created_at: now,
          last_seen_at: now,
          expires_at: now + (remember ? times.rememberMs : times.absoluteMs),
          device: deviceOf(device),
          remembered: remember ? 1 : 0,
        });
        const session = SessionRow.parse(await tx.get(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`, [id]));
        return {
          sessionSecret,
          session,
          link: {
            person: { issuer: link.issuer, subject: link.subject },
            projectId: link.project_id,
            canvasId: link.canvas_id,
          },
        };
      });
    },

    /**
     * The live session a cookie names, or undefined (unknown, ended, idle too long, past its end). A remembered session
     * answers only to the browser it was opened in (`device`, its User-Agent: a copied cookie used elsewhere is
     * refused), and each use renews it.
     */
    async findSession(
      secret: string,
      times: SessionTimes,
      device: string | null | undefined,
    ): Promise<SessionRecord | undefined> {
      const row = await driver.get(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE secret_hash = ?`, [
        sha256Hex(secret),
      ]);
      if (!row) return undefined;
      const session = SessionRow.parse(row);
      const now = clock();
      const idleMs = session.remembered ? times.rememberMs : times.idleMs;
      if (session.endedAt !== null || session.expiresAt <= now || session.lastSeenAt + idleMs <= now) return undefined;
      if (session.remembered && session.device !== null && deviceOf(device) !== session.device) return undefined;
      if (now - session.lastSeenAt >= SEEN_RESOLUTION_MS) {
        const expiresAt = session.remembered
          ? Math.min(session.createdAt + REMEMBERED_AT_MOST_MS, now + times.rememberMs)
          : session.expiresAt;
        await driver.run('UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE id = ? AND ended_at IS NULL', [
          now,
          expiresAt,
          session.id,
        ]);
        return { ...session, lastSeenAt: now, expiresAt };
      }
      return session;
    },

    async getSession(id: string): Promise<SessionRecord | undefined> {
      const row = await driver.get(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`, [id]);
      return row ? SessionRow.parse(row) : undefined;
    },

    async endSession(id: string): Promise<void> {
      const { changes } = await driver.run('UPDATE sessions SET ended_at = COALESCE(ended_at, ?) WHERE id = ?', [
        clock(),
        id,
      ]);
      if (changes === 0) throw new CanvasError('not_found', `No session ${id}.`);
    },

    /** A person's live sessions (not ended, not expired, not idle too long), most recently used first. */
    async sessionsOf(person: Actor, times: SessionTimes): Promise<SessionRecord[]> {
      const now = clock();
      const rows = await driver.all(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE issuer = ? AND subject = ? AND ended_at IS NULL AND expires_at > ?
           AND ((remembered = 1 AND last_seen_at > ?) OR (remembered = 0 AND last_seen_at > ?)) ORDER BY last_seen_at DESC`,
        [person.issuer, person.subject, now, now - times.rememberMs, now - times.idleMs],
      );
      return rows.map((row) => SessionRow.parse(row));
    },

    /** Sessions that have not ended (they may still be past their expiry), newest first. */
    async listSessions(): Promise<SessionRecord[]> {
      const rows = await driver.all(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE ended_at IS NULL ORDER BY created_at DESC`,
      );
      return rows.map((row) => SessionRow.parse(row));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
