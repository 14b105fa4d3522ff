import { z } from 'zod';
import { CONVERSATION_STATUSES, type ConversationStatus, type StoredChatMessage } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Actor } from './records.js';
import { insertRow } from './row-statements.js';
import type { SqlDriver, SqlParam } from './sql-driver.js';

/**
 * Conversations of the canvas chat and their transcripts (migration 007; docs/chat.md). A message is stored as the
 * AI SDK's UIMessage JSON, in order; a turn that continues after an approval replaces the assistant message it
 * continues. A conversation marked running whose process stopped beating is read back as interrupted.
 */

const Millis = z.coerce.number().int();
const Flag = z.coerce.number().transform((value) => value === 1);

const ConversationRow = z
  .object({
    id: z.string(),
    project_id: z.string(),
    canvas_id: z.string(),
    chat_run_id: z.string(),
    owner_issuer: z.string(),
    owner_subject: z.string(),
    title: z.string(),
    status: z.enum(CONVERSATION_STATUSES),
    can_edit: Flag,
    approval_expires_at: Millis.nullable(),
    tokens_used: z.coerce.number(),
    created_at: Millis,
    updated_at: Millis,
  })
  .transform((row) => ({
    id: row.id,
    projectId: row.project_id,
    canvasId: row.canvas_id,
    chatRunId: row.chat_run_id,
    owner: { issuer: row.owner_issuer, subject: row.owner_subject },
    title: row.title,
    status: row.status,
    canEdit: row.can_edit,
    approvalExpiresAt: row.approval_expires_at,
    tokensUsed: row.tokens_used,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
export type ConversationRecord = z.output<typeof ConversationRow>;

const COLUMNS =
  'id, project_id, canvas_id, chat_run_id, owner_issuer, owner_subject, title, status, can_edit, approval_expires_at, tokens_used, created_at, updated_at';
const MessageRow = z.object({ seq: Millis, body: z.string() });
const SeqRow = z.object({ next_seq: Millis });
const IdRow = z.object({ id: z.string() });

/** A turn beats this often while it runs; one silent for STALE_MS belonged to a process that is gone. */
export const TURN_HEARTBEAT_MS = 5_000;
const STALE_MS = 6 * TURN_HEARTBEAT_MS;

export interface NewConversation {
  id: string;
  projectId: string;
  canvasId: string;
  chatRunId: string;
  owner: Actor;
  title: string;
  canEdit: boolean;
}

export function createChatStore(driver: SqlDriver, clock: () => number) {
  /** Running with no heartbeat for STALE_MS: its process stopped mid-turn. */
  const settled = (conversation: ConversationRecord): ConversationRecord =>
    conversation.status === 'running' && conversation.updatedAt < clock() - STALE_MS
      ? { ...conversation, status: 'interrupted' }
      : conversation;

  async function read(id: string): Promise<ConversationRecord | undefined> {
    const row = await driver.get(`SELECT ${COLUMNS} FROM chat_conversations WHERE id = ?`, [id]);
    return row ? settled(ConversationRow.parse(row)) : undefined;
  }

  return {
    async create(conversation: NewConversation): Promise<ConversationRecord> {
      const now = clock();
      await driver.run(
        `INSERT INTO chat_conversations (id, project_id, canvas_id, chat_run_id, owner_issuer, owner_subject, title, status, can_edit, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'idle', ?, ?, ?)`,
        [
          conversation.id,
          conversation.projectId,
          conversation.canvasId,
          conversation.chatRunId,
          conversation.owner.issuer,
          conversation.owner.subject,
          conversation.title,
          conversation.canEdit ? 1 : 0,
          now,
          now,
        ],
      );
      return (await read(conversation.id))!;
    },

    get: read,

    /** The canvas's conversations, most recently active first. */
    async list(projectId: string, canvasId: string, limit = 50): Promise<ConversationRecord[]> {
      const rows = await driver.all(
        `SELECT ${COLUMNS} FROM chat_conversations WHERE project_id = ? AND canvas_id = ? ORDER BY updated_at DESC, id LIMIT ?`,
        [projectId, canvasId, limit],
      );
      return rows.map((row) => settled(ConversationRow.parse(row)));
    },

    /** Moves a conversation to a status; a turn's heartbeat is this with the same status. */
    async setStatus(id: string, status: ConversationStatus, approvalExpiresAt: number | null = null): Promise<void> {
      await driver.run(
        'UPDATE chat_conversations SET status = ?, approval_expires_at = ?, updated_at = ? WHERE id = ?',
        [status, approvalExpiresAt, clock(), id],
      );
    },

    /**
     * Takes the approval a conversation waits on for answering (awaiting_approval → running), once across every
     * server on the database: false when someone else answered it first. With `expiredBy`, only if it expired by then.
     */
    async claimApproval(id: string, expiredBy?: number): Promise<boolean> {
      const params: SqlParam[] = [clock(), id];
      if (expiredBy !== undefined) params.push(expiredBy);
      const { changes } = await driver.run(
        `UPDATE chat_conversations SET status = 'running', approval_expires_at = NULL, updated_at = ?
         WHERE id = ? AND status = 'awaiting_approval'${expiredBy === undefined ? '' : ' AND approval_expires_at <= ?'}`,
        params,
      );
      return changes === 1;
    },

    /** Conversations whose approval expired by `now`, the oldest first: what an approval sweep answers. */
    async expiredApprovals(now: number, limit = 100): Promise<string[]> {
      const rows = await driver.all(
        "SELECT id FROM chat_conversations WHERE status = 'awaiting_approval' AND approval_expires_at <= ? ORDER BY approval_expires_at, id LIMIT ?",
        [now, limit],
      );
      return rows.map((row) => IdRow.parse(row).id);
    },

    async rename(id: string, title: string): Promise<void> {
      await driver.run('UPDATE chat_conversations SET title = ? WHERE id = ?', [title, id]);
    },

    /** Adds a turn's tokens to its conversation, and to its person's and project's spend (chat_usage), in one go. */
    async addTokens(conversation: ConversationRecord, tokens: number, estimated = false): Promise<void> {
      const spent = Math.max(0, Math.round(tokens));
      await driver.transaction(async (tx) => {
        await tx.run('UPDATE chat_conversations SET tokens_used = tokens_used + ? WHERE id = ?', [
          spent,
          conversation.id,
        ]);
        if (spent === 0) return;
        await insertRow(tx, 'chat_usage', {
          id: newId('use_'),
          conversation_id: conversation.id,
          project_id: conversation.projectId,
          owner_issuer: conversation.owner.issuer,
          owner_subject: conversation.owner.subject,
          tokens: spent,
          estimated: estimated ? 1 : 0,
          at: clock(),
        });
      });
    },

    /** Model tokens a person, and the project, spent on the chat since `since` (every server's turns). */
    async spentSince(person: Actor, projectId: string, since: number): Promise<{ person: number; project: number }> {
      const sum = async (where: string, params: SqlParam[]) =>
        Number(
          (await driver.get(`SELECT COALESCE(SUM(tokens), 0) AS spent FROM chat_usage WHERE ${where}`, params))
            ?.spent ?? 0,
        );
      return {
        person: await sum('owner_issuer = ? AND owner_subject = ? AND at > ?', [person.issuer, person.subject, since]),
        project: await sum('project_id = ? AND at > ?', [projectId, since]),
      };
    },

    /** Conversations a person has not ended, on every canvas. */
    async openCount(person: Actor): Promise<number> {
      const row = await driver.get(
        `SELECT COUNT(*) AS open FROM chat_conversations WHERE owner_issuer = ? AND owner_subject = ? AND status <> 'ended'`,
        [person.issuer, person.subject],
      );
      return Number(row?.open ?? 0);
    },

    /**
     * Appends a person's message under an id the server chose; refused when `clientId` (the page's own id for it)
     * names a message already in the conversation, so nobody can overwrite another author's message.
     */
    async appendPersonMessage(conversationId: string, message: StoredChatMessage, clientId: string): Promise<void> {
      const taken = await driver.get('SELECT role FROM chat_messages WHERE conversation_id = ? AND id IN (?, ?)', [
        conversationId,
        clientId,
        message.id,
      ]);
      if (taken) {
        throw new CanvasError(
          'invalid_arguments',
          'message.id names a message already in this conversation: each message the page sends has a new id.',
          { issues: [{ path: 'message.id', message: 'already in this conversation' }] },
        );
      }
      await this.saveMessage(conversationId, message);
    },

    /** Appends a message, or replaces the message with the same id (a turn continued after an approval). */
    async saveMessage(conversationId: string, message: StoredChatMessage): Promise<void> {
      const body = JSON.stringify(message);
      await driver.transaction(async (tx) => {
        const { changes } = await tx.run('UPDATE chat_messages SET body = ? WHERE conversation_id = ? AND id = ?', [
          body,
          conversationId,
          message.id,
        ]);
        if (changes > 0) return;
        const row = await tx.get(`SELECT next_seq FROM chat_conversations WHERE id = ?${driver.forUpdate}`, [
          conversationId,
        ]);
        if (!row) throw new CanvasError('not_found', `No conversation ${conversationId}.`);
        const seq = SeqRow.parse(row).next_seq;
        await tx.run(
          'INSERT INTO chat_messages (conversation_id, seq, id, role, body, created_at) VALUES (?, ?, ?, ?, ?, ?)',
          [conversationId, seq, message.id, message.role, body, clock()],
        );
        await tx.run('UPDATE chat_conversations SET next_seq = ?, updated_at = ? WHERE id = ?', [
          seq + 1,
          clock(),
          conversationId,
        ]);
      });
    },

    /** Messages before `before` (a seq), oldest first, at most `limit`; and where the older page starts. */
    async messages(
      conversationId: string,
      options: { before?: number; limit: number },
    ): Promise<{ messages: StoredChatMessage[]; nextBefore: number | null }> {
      const rows = (
        await driver.all(
          'SELECT seq, body FROM chat_messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
          [conversationId, options.before ?? Number.MAX_SAFE_INTEGER, options.limit],
        )
      ).map((row) => MessageRow.parse(row));
      const oldest = rows.at(-1)?.seq ?? null;
      return {
        messages: rows.reverse().map((row) => JSON.parse(row.body) as StoredChatMessage),
        nextBefore: oldest !== null && oldest > 1 && rows.length === options.limit ? oldest : null,
      };
    },

    /** Every message, oldest first: what a turn sends the model. */
    async transcript(conversationId: string): Promise<StoredChatMessage[]> {
      const rows = await driver.all('SELECT seq, body FROM chat_messages WHERE conversation_id = ? ORDER BY seq', [
        conversationId,
      ]);
      return rows.map((row) => JSON.parse(MessageRow.parse(row).body) as StoredChatMessage);
    },

    async remove(id: string): Promise<void> {
      await driver.transaction(async (tx) => {
        await tx.run('DELETE FROM chat_messages WHERE conversation_id = ?', [id]);
        await tx.run('DELETE FROM chat_conversations WHERE id = ?', [id]);
      });
    },
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;
