import { CanvasId, ProjectId } from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import { report, withStore } from '../cli-support.js';
import type { StoreFlags } from '../store-options.js';
import { printList } from './admin-lists.js';

/** `canvas-mcp admin login-link` and `admin session …`: signing people in, and ending their sessions. */

export type PeopleFlags = StoreFlags & { json?: boolean };
export type LoginLinkFlags = PeopleFlags & {
  issuer: string;
  subject: string;
  expiresIn?: number;
  project?: string;
  canvas?: string;
  publicUrl?: string;
};

/** A one-time sign-in link that works for `seconds`. */
export function loginLink(seconds: number, flags: LoginLinkFlags): Promise<void> {
  return withStore(flags, async (store) => {
    if ((flags.project === undefined) !== (flags.canvas === undefined)) {
      throw new CanvasError('invalid_arguments', '--project and --canvas go together.');
    }
    const person = { issuer: flags.issuer, subject: flags.subject };
    if (flags.project !== undefined) {
      const projectId = parseOrThrow(ProjectId, flags.project, ['--project']);
      parseOrThrow(CanvasId, flags.canvas, ['--canvas']);
      if (!(await store.projects.getMemberRole(projectId, person))) {
        throw new CanvasError(
          'forbidden',
          `${flags.subject} is not a member of project ${projectId}: add them with admin member add first.`,
        );
      }
    } else if ((await store.directory.membershipsOf(person)).length === 0) {
      throw new CanvasError(
        'forbidden',
        `${flags.subject} is a member of no project: add them with admin member add first.`,
      );
    }
    const secret = await store.sessions.createLoginLink(person, {
      expiresInMs: seconds * 1000,
      projectId: flags.project ?? null,
      canvasId: flags.canvas ?? null,
    });
    const base = (
      flags.publicUrl ??
      process.env.CANVAS_MCP_PUBLIC_URL ??
      (await store.announcedUrl()) ??
      'http://127.0.0.1:8787'
    ).replace(/\/+$/, '');
    const url = `${base}/auth/login?token=${secret}`;
    report(
      flags.json,
      { url, expires_in: seconds },
      `sign-in link for ${flags.subject} (one use, ${seconds} s):\n${url}`,
    );
  });
}

export function listSessions(flags: PeopleFlags): Promise<void> {
  return withStore(flags, async (store) => {
    const sessions = (await store.sessions.listSessions()).map((entry) => ({
      session_id: entry.id,
      issuer: entry.person.issuer,
      subject: entry.person.subject,
      created_at: new Date(entry.createdAt).toISOString(),
      last_seen_at: new Date(entry.lastSeenAt).toISOString(),
      expires_at: new Date(entry.expiresAt).toISOString(),
    }));
    printList(flags.json, 'sessions', sessions, [
      ['session', (entry) => entry.session_id],
      ['person', (entry) => `${entry.issuer}|${entry.subject}`],
      ['signed in', (entry) => entry.created_at],
      ['last seen', (entry) => entry.last_seen_at],
      ['expires', (entry) => entry.expires_at],
    ]);
  });
}

export function revokeSession(sessionId: string, flags: PeopleFlags): Promise<void> {
  return withStore(flags, async (store) => {
    await store.sessions.endSession(sessionId);
    report(flags.json, { session_id: sessionId, revoked: true }, `session ${sessionId} ended`);
  });
}
