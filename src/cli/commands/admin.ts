import type { Command } from 'commander';
import { Option } from 'commander';
import { CanvasId, IdempotencyKey, NodeId, ProjectId, ResourceId } from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import { loadPricingSettings } from '../../config/index.js';
import {
  MEMBER_ROLES,
  TOKEN_KINDS,
  TOKEN_ROLES,
  type MemberRole,
  type TokenKind,
  type TokenRole,
} from '../../store/records.js';
import { collect, positiveSeconds, report, withStore, withStoreOptions, type StoreFlags } from '../cli-support.js';
import { registerAssetCommands } from './admin-assets.js';
import { registerVerifyCommand } from './admin-verify.js';
import { registerBackupCommands } from './admin-backup.js';
import { registerListCommands } from './admin-lists.js';
import { registerPeopleAdminCommands } from './admin-people.js';

/**
 * `canvas-mcp admin …`: what administrators do. Every command opens the store directly, so it works while a
 * server runs on the same store, and prints one JSON object with --json.
 */

type Flags = StoreFlags & { json?: boolean };

function actorFrom(issuer: string | undefined, subject: string | undefined, flag = '--issuer/--subject') {
  if ((issuer === undefined) !== (subject === undefined)) {
    throw new CanvasError('invalid_arguments', `${flag}: give both or neither.`);
  }
  return issuer !== undefined && subject !== undefined ? { issuer, subject } : null;
}

function adminCommand(parent: Command, name: string, description: string): Command {
  return withStoreOptions(parent.command(name).description(description).option('--json', 'print one JSON object'));
}

export function registerAdminCommands(
  program: Command,
  run: (json: boolean, work: () => Promise<void>) => Promise<void>,
): void {
  const admin = program
    .command('admin')
    .description('Administer workspaces, projects, canvases, members, tokens and runs');

  const workspace = admin.command('workspace').description('Workspaces');
  adminCommand(workspace, 'create', 'Create a workspace')
    .argument('<workspace>')
    .action((id: string, flags: Flags) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          await store.projects.createWorkspace(parseOrThrow(ResourceId, id, ['workspace']));
          report(flags.json, { workspace_id: id }, `workspace ${id} created`);
        }),
      ),
    );

  const project = admin.command('project').description('Projects');
  adminCommand(project, 'create', 'Create a project in a workspace')
    .argument('<project>')
    .requiredOption('--workspace <workspace>', 'the workspace the project belongs to')
    .action((id: string, flags: Flags & { workspace: string }) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          await store.projects.createProject(parseOrThrow(ProjectId, id, ['project']), flags.workspace);
          report(
            flags.json,
            { project_id: id, workspace_id: flags.workspace },
            `project ${id} created in workspace ${flags.workspace}`,
          );
        }),
      ),
    );
  adminCommand(project, 'budget', 'Set the credit budget of a project ("none" removes it)')
    .argument('<project>')
    .requiredOption('--credits <credits>', 'credits, or "none"')
    .action((id: string, flags: Flags & { credits: string }) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          const credits = flags.credits === 'none' ? null : Number(flags.credits);
          if (credits !== null && !(Number.isFinite(credits) && credits >= 0)) {
            throw new CanvasError(
              'invalid_arguments',
              `--credits must be a number >= 0 or "none", got ${JSON.stringify(flags.credits)}.`,
            );
          }
          await store.projects.setProjectBudget(id, credits);
          report(flags.json, { project_id: id, budget_credits: credits }, `project ${id} budget: ${credits ?? 'none'}`);
        }),
      ),
    );

  const canvas = admin.command('canvas').description('Canvases');
  adminCommand(canvas, 'create', 'Create a canvas in a project')
    .argument('<project>')
    .argument('<canvas>')
    .option('--locked', 'create it locked read-only')
    .action((projectId: string, canvasId: string, flags: Flags & { locked?: boolean }) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          await store.projects.createCanvas(projectId, parseOrThrow(CanvasId, canvasId, ['canvas']), !!flags.locked);
          report(
            flags.json,
            { project_id: projectId, canvas_id: canvasId, locked: !!flags.locked },
            `canvas ${canvasId} created in project ${projectId}${flags.locked ? ' (locked)' : ''}`,
          );
        }),
      ),
    );
  for (const [name, locked] of [
    ['lock', true],
    ['unlock', false],
  ] as const) {
    adminCommand(canvas, name, `${locked ? 'Lock a canvas read-only' : 'Unlock a canvas'}`)
      .argument('<project>')
      .argument('<canvas>')
      .action((projectId: string, canvasId: string, flags: Flags) =>
        run(!!flags.json, () =>
          withStore(flags, async (store) => {
            await store.projects.setCanvasLocked(projectId, canvasId, locked);
            report(
              flags.json,
              { project_id: projectId, canvas_id: canvasId, locked },
              `canvas ${canvasId} ${locked ? 'locked' : 'unlocked'}`,
            );
          }),
        ),
      );
  }

  const member = admin.command('member').description('Project memberships of delegated actors');
  adminCommand(member, 'add', 'Add (or change) an actor membership in a project')
    .argument('<project>')
    .requiredOption('--issuer <issuer>', 'identity issuer of the actor')
    .requiredOption('--subject <subject>', 'subject of the actor')
    .addOption(new Option('--role <role>', 'role in the project').choices(MEMBER_ROLES).makeOptionMandatory())
    .action((projectId: string, flags: Flags & { issuer: string; subject: string; role: MemberRole }) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          await store.projects.addMember(projectId, { issuer: flags.issuer, subject: flags.subject }, flags.role);
          report(
            flags.json,
            { project_id: projectId, issuer: flags.issuer, subject: flags.subject, role: flags.role },
            `${flags.subject} is ${flags.role} of project ${projectId}`,
          );
        }),
      ),
    );

  adminCommand(
    member,
    'remove',
    'Remove a member from a project: their sessions, tokens and chat runs stop reaching it at once',
  )
    .argument('<project>')
    .requiredOption('--issuer <issuer>', 'identity issuer of the member')
    .requiredOption('--subject <subject>', 'subject of the member')
    .action((projectId: string, flags: Flags & { issuer: string; subject: string }) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          await store.projects.removeMember(projectId, { issuer: flags.issuer, subject: flags.subject });
          report(
            flags.json,
            { project_id: projectId, issuer: flags.issuer, subject: flags.subject, removed: true },
            `${flags.subject} removed from project ${projectId}`,
          );
        }),
      ),
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
    .action(
      (
        flags: Flags & {
          name: string;
          project: string[];
          workspace: string[];
          role: TokenRole;
          kind: TokenKind;
          actorIssuer?: string;
          actorSubject?: string;
          expiresIn?: number;
        },
      ) =>
        run(!!flags.json, () =>
          withStore(flags, async (store) => {
            const actor = actorFrom(flags.actorIssuer, flags.actorSubject, '--actor-issuer/--actor-subject');
            // A gateway's own scope bounds every request it forwards: without one it would answer forbidden to all.
            if (flags.kind === 'gateway' && flags.project.length === 0 && flags.workspace.length === 0) {
              throw new CanvasError(
                'invalid_arguments',
                'A gateway token serves only the projects it is permitted on: give --workspace W (or --project P), repeatable.',
                {
                  issues: [
                    { path: '--workspace', message: 'a gateway token needs at least one --workspace or --project' },
                  ],
                },
              );
            }
            const expiresAt = flags.expiresIn ? Date.now() + flags.expiresIn * 1000 : null;
            const { tokenId, secret } = await store.tokens.createToken({
              name: flags.name,
              kind: flags.kind,
              role: flags.role,
              projects: flags.project,
              workspaces: flags.workspace,
              actor,
              expiresAt,
            });
            report(
              flags.json,
              { token_id: tokenId, token: secret },
              `token ${tokenId} (${flags.kind}, ${flags.role}) created. It is shown only now:\n${secret}`,
            );
          }),
        ),
    );
  adminCommand(token, 'revoke', 'Revoke a token')
    .argument('<token_id>')
    .action((tokenId: string, flags: Flags) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          await store.tokens.revokeToken(tokenId);
          report(flags.json, { token_id: tokenId, revoked: true }, `token ${tokenId} revoked`);
        }),
      ),
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
    .action(
      (
        projectId: string,
        canvasId: string,
        flags: Flags & { token?: string; issuer?: string; subject?: string; edit?: boolean; expiresIn?: number },
      ) =>
        run(!!flags.json, () =>
          withStore(flags, async (store) => {
            const actor = actorFrom(flags.issuer, flags.subject);
            if (!flags.token && !actor) {
              throw new CanvasError(
                'invalid_arguments',
                'A chat run is bound to its presenter: give --token TOKEN_ID (the agent token that will send it) and/or --issuer/--subject.',
              );
            }
            const agentRunId = await store.chatRuns.createChatRun({
              projectId,
              canvasId,
              actor,
              tokenId: flags.token ?? null,
              canEdit: !!flags.edit,
              expiresAt: flags.expiresIn ? Date.now() + flags.expiresIn * 1000 : null,
            });
            report(
              flags.json,
              { agent_run_id: agentRunId },
              `chat run ${agentRunId} created${flags.edit ? ' with edit authorization' : ''}`,
            );
          }),
        ),
    );
  adminCommand(chatRun, 'end', 'End a canvas chat run')
    .argument('<agent_run_id>')
    .action((agentRunId: string, flags: Flags) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          await store.chatRuns.endChatRun(agentRunId);
          report(flags.json, { agent_run_id: agentRunId, ended: true }, `chat run ${agentRunId} ended`);
        }),
      ),
    );

  registerPeopleAdminCommands(admin, run);

  const nodeRun = admin.command('node-run').description('Node runs');
  adminCommand(nodeRun, 'submit', 'Submit a run for a node')
    .argument('<project>')
    .argument('<canvas>')
    .argument('<node_id>')
    .option('--idempotency-key <key>', 'the same key and input return the same run')
    .action((projectId: string, canvasId: string, nodeId: string, flags: Flags & { idempotencyKey?: string }) =>
      run(!!flags.json, () =>
        withStore(flags, async (store) => {
          const { submitNodeRun } = await import('../../runs/submit.js');
          const { runPricingOf } = await import('../../runs/pricing.js');
          const { runModelsOf } = await import('../../runs/run-models.js');
          const settings = loadPricingSettings({});
          const { run: submitted, replayed } = await submitNodeRun(store, {
            projectId,
            canvasId,
            nodeId: parseOrThrow(NodeId, nodeId, ['node_id']),
            idempotencyKey:
              flags.idempotencyKey === undefined
                ? null
                : parseOrThrow(IdempotencyKey, flags.idempotencyKey, ['--idempotency-key']),
            triggeredBy: { kind: 'system', name: 'admin-cli' },
            // Priced and checked as the server does: the providers, models and prices of the environment or the
            // settings file.
            pricing: runPricingOf(settings),
            models: runModelsOf(settings),
          });
          report(
            flags.json,
            {
              run_id: submitted.run_id,
              status: submitted.status,
              replayed,
              estimated_credits: submitted.cost.estimated,
            },
            `run ${submitted.run_id} ${replayed ? 'already existed' : 'submitted'} (${submitted.status}, estimated ${submitted.cost.estimated} credits)`,
          );
        }),
      ),
    );

  registerListCommands(admin, run);
  registerBackupCommands(admin, run);
  registerAssetCommands(admin, run);
  registerVerifyCommand(admin, run);
}
