import type { Command } from 'commander';
import type { ListFlags } from '../actions/admin-lists.js';
import { CanvasError } from '../../shared/errors.js';
import { withStoreOptions } from '../store-options.js';

/** `canvas-mcp admin … list`: their arguments and flags; actions/admin-lists.ts reads and prints the lists. */

type Run = (json: boolean, work: () => Promise<void>) => Promise<void>;

const DEFAULT_RUN_LIMIT = 50;

const actions = () => import('../actions/admin-lists.js');

function listCommand(parent: Command, description: string): Command {
  return withStoreOptions(parent.command('list').description(description).option('--json', 'print one JSON object'));
}

function positiveLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    throw new CanvasError(
      'invalid_arguments',
      `--limit must be a whole number from 1 to 10000, got ${JSON.stringify(value)}.`,
    );
  }
  return limit;
}

export function registerListCommands(admin: Command, run: Run): void {
  const command = (name: string) => admin.commands.find((child) => child.name() === name)!;

  listCommand(command('project'), 'List projects').action((flags: ListFlags) =>
    run(!!flags.json, async () => (await actions()).listProjects(flags)),
  );

  listCommand(command('canvas'), 'List the canvases of a project')
    .argument('<project>')
    .action((projectId: string, flags: ListFlags) =>
      run(!!flags.json, async () => (await actions()).listCanvases(projectId, flags)),
    );

  listCommand(command('member'), 'List the members of a project')
    .argument('<project>')
    .action((projectId: string, flags: ListFlags) =>
      run(!!flags.json, async () => (await actions()).listMembers(projectId, flags)),
    );

  listCommand(command('token'), 'List tokens (ids and scopes; never a secret)')
    .option('--project <project>', 'only tokens scoped to this project')
    .action((flags: ListFlags & { project?: string }) =>
      run(!!flags.json, async () => (await actions()).listTokens(flags)),
    );

  listCommand(command('chat-run'), 'List the chat runs of a canvas (active ones; --all for every one)')
    .argument('<project>')
    .argument('<canvas>')
    .option('--all', 'include ended and expired chat runs')
    .action((projectId: string, canvasId: string, flags: ListFlags & { all?: boolean }) =>
      run(!!flags.json, async () => (await actions()).listChatRuns(projectId, canvasId, flags)),
    );

  listCommand(
    command('node-run'),
    `List the node runs of a canvas, newest first (at most --limit, default ${DEFAULT_RUN_LIMIT})`,
  )
    .argument('<project>')
    .argument('<canvas>')
    .option('--limit <n>', 'how many runs at most', positiveLimit)
    .action((projectId: string, canvasId: string, flags: ListFlags & { limit?: number }) =>
      run(!!flags.json, async () =>
        (await actions()).listNodeRuns(projectId, canvasId, flags.limit ?? DEFAULT_RUN_LIMIT, flags),
      ),
    );
}
