import { CanvasError } from '../shared/errors.js';
import { ID_PREFIX, newId } from '../shared/ids.js';
import { CHAT_RUN_COLUMNS, ChatRunRow, parseRow, type Actor, type ChatRunRecord } from './records.js';
import type { ReadCache } from './read-cache.js';
import { insertRow, requireRow } from './row-statements.js';
import type { SqlDriver } from './sql-driver.js';

/** Chat runs: an agent's session on one canvas, presented by one token, acting for one person. */

export interface NewChatRun {
  projectId: string;
  canvasId: string;
  /** The person the chat run acts for: a presenter must act for that person. */
  actor: Actor | null;
  /** The one token that may present it. */
  tokenId?: string | null;
  /** Who opened it (null: an administrator). */
  openedBy?: Actor | null;
  canEdit: boolean;
  expiresAt: number | null;
}

export interface ChatRunStore {
  createChatRun(chatRun: NewChatRun): Promise<string>;
  endChatRun(chatRunId: string): Promise<void>;
  /** The one token that may present a chat run from now on (the canvas chat mints one per turn). */
  bindChatRunToken(chatRunId: string, tokenId: string): Promise<void>;
  getChatRun(chatRunId: string): Promise<ChatRunRecord | undefined>;
}

export function createChatRunStore(driver: SqlDriver, clock: () => number, cachedRead: ReadCache): ChatRunStore {
  return {
    async createChatRun(chatRun) {
      const id = newId(ID_PREFIX.chatRun);
      await driver.transaction(async (tx) => {
        await requireRow(
          tx,
          'SELECT 1 FROM canvases WHERE project_id = ? AND id = ?',
          [chatRun.projectId, chatRun.canvasId],
          `No canvas ${chatRun.canvasId} in project ${chatRun.projectId}.`,
        );
        if (chatRun.tokenId) {
          await requireRow(tx, 'SELECT 1 FROM tokens WHERE id = ?', [chatRun.tokenId], `No token ${chatRun.tokenId}.`);
        }
        await insertRow(tx, 'chat_runs', {
          id,
          project_id: chatRun.projectId,
          canvas_id: chatRun.canvasId,
          actor_issuer: chatRun.actor?.issuer ?? null,
          actor_subject: chatRun.actor?.subject ?? null,
          token_id: chatRun.tokenId ?? null,
          opened_by_issuer: chatRun.openedBy?.issuer ?? null,
          opened_by_subject: chatRun.openedBy?.subject ?? null,
          can_edit: chatRun.canEdit ? 1 : 0,
          created_at: clock(),
          expires_at: chatRun.expiresAt,
        });
      });
      return id;
    },

    async endChatRun(chatRunId) {
      const { changes } = await driver.run('UPDATE chat_runs SET ended_at = COALESCE(ended_at, ?) WHERE id = ?', [
        clock(),
        chatRunId,
      ]);
      if (changes === 0) throw new CanvasError('not_found', `No chat run ${chatRunId}.`);
    },

    async bindChatRunToken(chatRunId, tokenId) {
      const { changes } = await driver.run('UPDATE chat_runs SET token_id = ? WHERE id = ? AND ended_at IS NULL', [
        tokenId,
        chatRunId,
      ]);
      if (changes === 0) throw new CanvasError('not_found', `No active chat run ${chatRunId}.`);
    },

    getChatRun(chatRunId) {
      return cachedRead(`chat-run\u0000${chatRunId}`, async () => {
        const row = await driver.get(`SELECT ${CHAT_RUN_COLUMNS} FROM chat_runs WHERE id = ?`, [chatRunId]);
        return row ? parseRow(ChatRunRow, row) : undefined;
      });
    },
  };
}
