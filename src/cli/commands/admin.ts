import type { Command } from 'commander';
import { Option } from 'commander';
import { MEMBER_ROLES, TOKEN_KINDS, TOKEN_ROLES, type MemberRole } from '../../store/records.js';
import type { ChatRunFlags, TokenFlags } from '../actions/admin-access.js';
import type { SubmitFlags } from '../actions/admin-node-run.js';
import type { AdminFlags, MemberFlags } from '../actions/admin-projects.js';
import { collect, positiveSeconds } from '../option-parsers.js';
import { withStoreOptions } from '../store-options.js';
import { registerAssetCommands } from './admin-assets.js';
import { registerVerifyCommand } from './admin-verify.js';
import { registerBackupCommands } from './admin-backup.js';
import { registerListCommands } from './admin-lists.js';
import { registerPeopleAdminCommands } from './admin-people.js';

/**
 * `canvas-mcp admin …`: what administrators do. Every command opens the store directly, so it works while a
 * server runs on the same store, and prints one JSON object with --json. Here are their arguments, flags and help;
 * what each does is in actions/, loaded only when that command runs.
 */

type Run = (json: boolean, work: () => Promise<void>) => Promise<void>;

const projects = () => import('../actions/admin-projects.js');
const access = () => import('../actions/admin-access.js');

function adminCommand(parent: Command, name: string, description: string): Command {
  return withStoreOptions(parent.command(name).description(description).option('--json', 'print one JSON object'));
}

export function registerAdminCommands(program: Command, run: Run): void {
  const admin = program
    .command('admin')
    .description('Administer workspaces, projects, canvases, members, tokens and runs');

  const workspace = admin.command('workspace').description('Workspaces');
  adminCommand(workspace, 'create', 'Create a workspace')
    .argument('<workspace>')
    .action((id: string, flags: AdminFlags) =>
      run(!!flags.json, async () => (await projects()).createWorkspace(id, flags)),
    );

  const project = admin.command('project').description('Projects');
  adminCommand(project, 'create', 'Create a project in a workspace')
    .argument('<project>')
    .requiredOption('--workspace <workspace>', 'the workspace the project belongs to')
    .action((id: string, flags: AdminFlags & { workspace: string }) =>
      run(!!flags.json, async () => (await projects()).createProject(id, flags)),
    );
  adminCommand(project, 'budget', 'Set the credit budget of a project ("none" removes it)')
    .argument('<project>')
    .requiredOption('--credits <credits>', 'credits, or "none"')
    .action((id: string, flags: AdminFlags & { credits: string }) =>
      run(!!flags.json, async () => (await projects()).setProjectBudget(id, flags)),
    );

  const canvas = admin.command('canvas').description('Canvases');
  adminCommand(canvas, 'create', 'Create a canvas in a project')
    .argument('<project>')
    .argument('<canvas>')
    .option('--locked', 'create it locked read-only')
    .action((projectId: string, canvasId: string, flags: AdminFlags & { locked?: boolean }) =>
      run(!!flags.json, async () => (await projects()).createCanvas(projectId, canvasId, flags)),
    );
  for (const [name, locked] of [
    ['lock', true],
    ['unlock', false],
  ] as const) {
    adminCommand(canvas, name, `${locked ? 'Lock a canvas read-only' : 'Unlock a canvas'}`)
      .argument('<project>')
      .argument('<canvas>')
      .action((projectId: string, canvasId: string, flags: AdminFlags) =>
        run(!!flags.json, async () => (await projects()).setCanvasLocked(projectId, canvasId, locked, flags)),
      );
  }

  const member = admin.command('member').description('Project memberships of delegated actors');
  adminCommand(member, 'add', 'Add (or change) an actor membership in a project')
    .argument('<project>')
    .requiredOption('--issuer <issuer>', 'identity issuer of the actor')
    .requiredOption('--subject <subject>', 'subject of the actor')
    .addOption(new Option('--role <role>', 'role in the project').choices(MEMBER_ROLES).makeOptionMandatory())
    .action((projectId: string, flags: MemberFlags & { role: MemberRole }) =>
      run(!!flags.json, async () => (await projects()).addMember(projectId, flags)),
    );
  adminCommand(
    member,
    'remove',
    'Remove a member from a project: their sessions, tokens and chat runs stop reaching it at once',
  )
    .argument('<project>')
    .requiredOption('--issuer <issuer>', 'identity issuer of the member')
    .requiredOption('--subject <subject>', 'subject of the member')
    .action((projectId: string, flags: MemberFlags) =>
      run(!!flags.json, async () => (await projects()).removeMember(projectId, flags)),
    );

  const token = admin.command('token').description('Tokens');
  adminCommand(token, 'create', 'Issue a token (the secret is shown once)')
    .requiredOption('--name <name>', 'a name for people and logs')
    .option('--project <project>', 'a permitted project (repeatable)', collect, [])
    .option('--workspace <workspace>', 'a permitted workspace (repeatable)', collect, [])
    .addOption(new Option('--role <role>', 'the most this token may do').choices(TOKEN_ROLES).default('editor'))
    .addOption(
      new Option(
        '--kind <kind>',
        'agent: the tool server; backend: REST only; gateway: a tool server in front of this backend',
      )
        .choices(TOKEN_KINDS)
        .default('agent'),
    )
    .option('--actor-issuer <issuer>', 'delegated identity the requests must assert: issuer')
    .option('--actor-subject <subject>', 'delegated identity the requests must assert: subject')
    .option('--expires-in <seconds>', 'expire after this many seconds', positiveSeconds)
    .action((flags: TokenFlags) => run(!!flags.json, async () => (await access()).createToken(flags)));
  adminCommand(token, 'revoke', 'Revoke a token')
    .argument('<token_id>')
    .action((tokenId: string, flags: AdminFlags) =>
      run(!!flags.json, async () => (await access()).revokeToken(tokenId, flags)),
    );

  const chatRun = admin.command('chat-run').description('Canvas chat runs (the X-Agent-Run-Id of an agent)');
  adminCommand(
    chatRun,
    'create',
    'Create a canvas chat run, bound to the token that may present it and/or the person it acts for',
  )
    .argument('<project>')
    .argument('<canvas>')
    .option('--token <token_id>', 'the one token that may present it (X-Agent-Run-Id)')
    .option('--issuer <issuer>', 'the person it acts for: issuer (the presenting token must act for this person)')
    .option('--subject <subject>', 'the person it acts for: subject')
    .option('--edit', 'hold a canvas edit authorization')
    .option('--expires-in <seconds>', 'expire after this many seconds', positiveSeconds)
    .action((projectId: string, canvasId: string, flags: ChatRunFlags) =>
      run(!!flags.json, async () => (await access()).createChatRun(projectId, canvasId, flags)),
    );
  adminCommand(chatRun, 'end', 'End a canvas chat run')
    .argument('<agent_run_id>')
    .action((agentRunId: string, flags: AdminFlags) =>
      run(!!flags.json, async () => (await access()).endChatRun(agentRunId, flags)),
    );

  registerPeopleAdminCommands(admin, run);

  const nodeRun = admin.command('node-run').description('Node runs');
  adminCommand(nodeRun, 'submit', 'Submit a run for a node')
    .argument('<project>')
    .argument('<canvas>')
    .argument('<node_id>')
    .option('--idempotency-key <key>', 'the same key and input return the same run')
    .action((projectId: string, canvasId: string, nodeId: string, flags: SubmitFlags) =>
      run(!!flags.json, async () =>
        (await import('../actions/admin-node-run.js')).submitRun(projectId, canvasId, nodeId, flags),
      ),
    );

  registerListCommands(admin, run);
  registerBackupCommands(admin, run);
  registerAssetCommands(admin, run);
  registerVerifyCommand(admin, run);
}
