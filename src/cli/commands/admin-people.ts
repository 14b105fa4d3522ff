import type { Command } from 'commander';
import type { LoginLinkFlags, PeopleFlags } from '../actions/admin-people.js';
import { positiveSeconds } from '../option-parsers.js';
import { withStoreOptions } from '../store-options.js';

/** `canvas-mcp admin login-link` and `admin session …`: their flags; actions/admin-people.ts signs in and ends. */

type Run = (json: boolean, work: () => Promise<void>) => Promise<void>;

const DEFAULT_LINK_SECONDS = 15 * 60;

const actions = () => import('../actions/admin-people.js');

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
    .action((flags: LoginLinkFlags) =>
      run(!!flags.json, async () => (await actions()).loginLink(flags.expiresIn ?? DEFAULT_LINK_SECONDS, flags)),
    );

  const session = admin.command('session').description('Signed-in sessions of people');
  command(session, 'list', 'List sessions that have not ended (ids only; never a session secret)').action(
    (flags: PeopleFlags) => run(!!flags.json, async () => (await actions()).listSessions(flags)),
  );
  command(session, 'revoke', 'End a session at once')
    .argument('<session_id>')
    .action((sessionId: string, flags: PeopleFlags) =>
      run(!!flags.json, async () => (await actions()).revokeSession(sessionId, flags)),
    );
}
