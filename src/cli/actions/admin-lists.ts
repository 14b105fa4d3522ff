import { chatRunView, tokenView } from '../../backend/team/people-operations.js';
import { CanvasError } from '../../shared/errors.js';
import type { Actor, ChatRunRecord, TokenRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { withStore } from '../cli-support.js';
import type { StoreFlags } from '../store-options.js';
import { formatTable } from '../table.js';

/**
 * `canvas-mcp admin … list`: what the store holds, as a table for people or one JSON object with --json. Never a
 * token secret or hash: tokens and sessions are listed by id only.
 */

export type ListFlags = StoreFlags & { json?: boolean };

/** Prints `{ [key]: items }` with --json, else a table of the given columns. */
export function printList<T extends Record<string, unknown>>(
  json: boolean | undefined,
  key: string,
  items: T[],
  columns: ReadonlyArray<[header: string, cell: (item: T) => string]>,
): void {
  if (json) {
    process.stdout.write(`${JSON.stringify({ [key]: items })}\n`);
    return;
  }
  const text =
    items.length === 0
      ? `no ${key.replace(/_/g, ' ')}`
      : formatTable(
          columns.map(([header]) => header),
          items.map((item) => columns.map(([, cell]) => cell(item))),
        );
  process.stdout.write(`${text}\n`);
}

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());
const person = (actor: Actor | null) => (actor ? `${actor.issuer}|${actor.subject}` : '-');

async function requireProject(store: Store, projectId: string): Promise<void> {
  if (!(await store.projects.getProject(projectId))) throw new CanvasError('not_found', `No project ${projectId}.`);
}

async function requireCanvas(store: Store, projectId: string, canvasId: string): Promise<void> {
  await requireProject(store, projectId);
  if (!(await store.layout.readCanvas(projectId, canvasId)))
    throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
}

function tokenStatus(token: TokenRecord, now: number): 'active' | 'revoked' | 'expired' {
  if (token.revokedAt !== null) return 'revoked';
  return token.expiresAt !== null && token.expiresAt <= now ? 'expired' : 'active';
}

function chatRunStatus(chatRun: ChatRunRecord, now: number): 'active' | 'ended' | 'expired' {
  if (chatRun.endedAt !== null) return 'ended';
  return chatRun.expiresAt !== null && chatRun.expiresAt <= now ? 'expired' : 'active';
}

export function listProjects(flags: ListFlags): Promise<void> {
  return withStore(flags, async (store) => {
    const projects = [];
    for (const entry of await store.directory.projects()) {
      const project = await store.projects.getProject(entry.projectId);
      projects.push({
        project_id: entry.projectId,
        workspace_id: entry.workspaceId,
        budget_credits: project?.budgetCredits ?? null,
        spent_credits: project?.spentCredits ?? 0,
      });
    }
    printList(flags.json, 'projects', projects, [
      ['project', (p) => p.project_id],
      ['workspace', (p) => p.workspace_id],
      ['budget', (p) => String(p.budget_credits ?? 'none')],
      ['spent', (p) => String(p.spent_credits)],
    ]);
  });
}

export function listCanvases(projectId: string, flags: ListFlags): Promise<void> {
  return withStore(flags, async (store) => {
    await requireProject(store, projectId);
    const canvases = (await store.directory.canvases(projectId)).map((canvas) => ({
      project_id: canvas.projectId,
      canvas_id: canvas.canvasId,
      locked: canvas.locked,
      revision: canvas.revision,
    }));
    printList(flags.json, 'canvases', canvases, [
      ['canvas', (c) => c.canvas_id],
      ['revision', (c) => String(c.revision)],
      ['locked', (c) => (c.locked ? 'yes' : 'no')],
    ]);
  });
}

export function listMembers(projectId: string, flags: ListFlags): Promise<void> {
  return withStore(flags, async (store) => {
    await requireProject(store, projectId);
    const members = (await store.directory.members(projectId)).map((member) => ({
      issuer: member.person.issuer,
      subject: member.person.subject,
      role: member.role,
      added_at: iso(member.createdAt),
    }));
    printList(flags.json, 'members', members, [
      ['issuer', (m) => m.issuer],
      ['subject', (m) => m.subject],
      ['role', (m) => m.role],
      ['added', (m) => m.added_at ?? '-'],
    ]);
  });
}

export function listTokens(flags: ListFlags & { project?: string }): Promise<void> {
  return withStore(flags, async (store) => {
    const now = Date.now();
    const tokens = (await store.directory.tokens(flags.project)).map((token) => ({
      ...tokenView(token),
      actor: token.actor,
      status: tokenStatus(token, now),
    }));
    printList(flags.json, 'tokens', tokens, [
      ['token', (t) => t.token_id],
      ['name', (t) => t.name],
      ['kind', (t) => t.kind],
      ['role', (t) => t.role],
      [
        'scope',
        (t) =>
          [...t.projects.map((p) => `project:${p}`), ...t.workspaces.map((w) => `workspace:${w}`)].join(',') || '-',
      ],
      ['status', (t) => t.status],
      ['expires', (t) => t.expires_at ?? '-'],
    ]);
  });
}

export function listChatRuns(projectId: string, canvasId: string, flags: ListFlags & { all?: boolean }): Promise<void> {
  return withStore(flags, async (store) => {
    await requireCanvas(store, projectId, canvasId);
    const now = Date.now();
    const records = flags.all
      ? await store.directory.chatRuns(projectId, canvasId)
      : await store.directory.activeChatRuns(projectId, canvasId);
    const chatRuns = records.map((chatRun) => ({
      ...chatRunView(chatRun),
      ended_at: iso(chatRun.endedAt),
      status: chatRunStatus(chatRun, now),
    }));
    printList(flags.json, 'chat_runs', chatRuns, [
      ['agent run', (c) => c.agent_run_id],
      ['edit', (c) => (c.can_edit ? 'yes' : 'no')],
      ['token', (c) => c.token_id ?? '-'],
      ['acts for', (c) => person(c.acts_for)],
      ['status', (c) => c.status],
      ['created', (c) => c.created_at ?? '-'],
    ]);
  });
}

export function listNodeRuns(projectId: string, canvasId: string, limit: number, flags: ListFlags): Promise<void> {
  return withStore(flags, async (store) => {
    await requireCanvas(store, projectId, canvasId);
    const runs = (await store.directory.runs(projectId, canvasId, limit)).map((entry) => ({
      run_id: entry.runId,
      node_id: entry.nodeId,
      operation: entry.operation,
      status: entry.status,
      attempt: entry.attempt,
      cost_estimated: entry.costEstimated,
      cost_charged: entry.costCharged,
      error_code: entry.errorCode,
      created_at: iso(entry.createdAt),
      finished_at: iso(entry.finishedAt),
    }));
    printList(flags.json, 'runs', runs, [
      ['run', (r) => r.run_id],
      ['node', (r) => r.node_id],
      ['operation', (r) => r.operation],
      ['status', (r) => r.status + (r.error_code ? ` (${r.error_code})` : '')],
      ['created', (r) => r.created_at ?? '-'],
      ['finished', (r) => r.finished_at ?? '-'],
    ]);
  });
}
