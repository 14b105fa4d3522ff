import type { Command } from 'commander';
import { CanvasId, ProjectId } from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import { positiveSeconds, report, withStore, withStoreOptions, type StoreFlags } from '../cli-support.js';
import { printList } from './admin-lists.js';

/** `canvas-mcp admin login-link` and `admin session …`: signing people in, and ending their sessions. */

type Flags = StoreFlags & { json?: boolean };
type Run = (json: boolean, work: () => Promise<void>) => Promise<void>;

const DEFAULT_LINK_SECONDS = 15 * 60;

function command(parent: Command, name: string, description: string): Command {
  return withStoreOptions(parent.command(name).description(description).option('--json', 'print one JSON object'));
}

export function registerPeopleAdminCommands(admin: Command, run: Run): void {
  command(admin, 'login-link', 'Make a one-time sign-in link for a person (a project member)')
    .requiredOption('--issuer <issuer>', 'identity issuer of the person')
    .requiredOption('--subject <subject>', 'subject of the person')
    .option('--expires-in <seconds>', `the link works this long (default ${DEFAULT_LINK_SECONDS})`, positiveSeconds)
    .option('--project <project>', "open this project's canvas after sign-in (with --canvas)")
    .option('--canvas <canvas>', 'the canvas to open after sign-in')
    .option(
      '--public-url <url>',
      'the URL people open the server at (env CANVAS_MCP_PUBLIC_URL; default: the URL the server announced when it last started)',
    )
    .action(
      (
        flags: Flags & {
          issuer: string;
          subject: string;
          expiresIn?: number;
          project?: string;
          canvas?: string;
          publicUrl?: string;
        },
      ) =>
        run(!!flags.json, () =>
          withStore(flags, async (store) => {
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
            const seconds = flags.expiresIn ?? DEFAULT_LINK_SECONDS;
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
          }),
        ),
    );

  const session = admin.command('session').description('Signed-in sessions of people');
  command(session, 'list', 'List sessions that have not ended (ids only; never a session secret)').action(
    (flags: Flags) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
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
        }),
      ),
  );
  command(session, 'revoke', 'End a session at once')
    .argument('<session_id>')
    .action((sessionId: string, flags: Flags) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          await store.sessions.endSession(sessionId);
          report(flags.json, { session_id: sessionId, revoked: true }, `session ${sessionId} ended`);
        }),
      ),
    );
}
