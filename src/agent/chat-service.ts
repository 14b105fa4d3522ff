import type { LanguageModel, UIMessageChunk } from 'ai';
import type {
  ChatModelStatus,
  ChatSendBody,
  ConversationView,
  StoredChatMessage,
  CanvasRef,
} from '../contract/index.js';
import { authorizeProject, requireCanvas } from '../backend/auth/access.js';
import type { CallerContext } from '../backend/auth/caller.js';
import { personOf } from '../backend/team/people-operations.js';
import { CanvasError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Logger } from '../shared/logger.js';
import { TURN_HEARTBEAT_MS, type ConversationRecord } from '../store/chat-store.js';
import type { Actor } from '../store/records.js';
import type { Store } from '../store/store.js';
import { answered, lastPersonText, pendingApprovals } from './approvals.js';
import { liveTurn, type LiveTurn } from './live-turn.js';
import { checkpointBigTurn } from './turn-checkpoint.js';
import { mentionedCanvases } from './canvas-mentions.js';
import { chatModelStatus, type ChatModel } from './model.js';
import { systemPrompt } from './system-prompt.js';
import type { runTurn as RunTurn, TurnResult } from './turn.js';
import { boardToLookAt } from './board-look.js';
import { samePerson } from '../contract/index.js';

/**
 * The canvas chat (docs/chat.md). A conversation is a chat run bound to its person: read-only when they are
 * a viewer. Each turn runs on the server (keys stay here; a closed tab does not stop it) with a token minted for
 * that turn alone (issued by the person, so it never does more than they may; hashed; revoked when the turn ends),
 * and its agent is an MCP client of this server's own /mcp/, held to every check an external agent is.
 */

export interface ChatLimits {
  /** Tool steps of one turn. */
  maxSteps: number;
  /** Model tokens of one conversation, over all its turns. */
  tokenBudget: number;
  /** Model tokens one person's conversations may use over a day (rolling 24 hours), on every canvas. */
  personTokensPerDay: number;
  /** Model tokens one project's conversations may use over a day. */
  projectTokensPerDay: number;
  /** Conversations one person may have open (not ended) at once. */
  openConversationsPerPerson: number;
  /** How long an approval request waits for the person. */
  approvalMs: number;
  /** Longest silence from the model mid-answer. */
  chunkTimeoutMs: number;
}

export interface ChatServiceOptions {
  store: Store;
  model: ChatModel | null;
  logger: Logger;
  clock: () => number;
  /** This server's MCP endpoint as its own agent reaches it (known once the server listens). */
  mcpUrl: () => string;
  /** How its own agent reaches that endpoint (over https: trusting this server's own certificate). */
  mcpFetch?: typeof fetch;
  limits: ChatLimits;
}

/** A turn token lives at most this long (a turn is bounded by its steps and the model's timeouts). */
const TURN_TOKEN_MS = 60 * 60_000;

/**
 * How often a server looks for approvals that expired with nobody to answer them: the timer of the server that asked
 * is lost when it stops, and any server on the database may answer instead.
 */
const APPROVAL_SWEEP_MS = 15_000;

const DAY_MS = 86_400_000;
/** How long a stop waits for the turn to record that it stopped before answering. */
const STOP_SETTLE_MS = 5000;

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

export function conversationView(conversation: ConversationRecord): ConversationView {
  return {
    conversation_id: conversation.id,
    project_id: conversation.projectId,
    canvas_id: conversation.canvasId,
    title: conversation.title,
    owner: conversation.owner,
    status: conversation.status,
    can_edit: conversation.canEdit,
    agent_run_id: conversation.chatRunId,
    tokens_used: conversation.tokensUsed,
    approval_expires_at: iso(conversation.approvalExpiresAt),
    created_at: iso(conversation.createdAt)!,
    updated_at: iso(conversation.updatedAt)!,
  };
}

function titleOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

export function createChatService(options: ChatServiceOptions) {
  const { store, logger, clock, limits } = options;
  const live = new Map<string, { turn: LiveTurn; abort: AbortController; settled: Promise<void> }>();
  const approvalTimers = new Map<string, NodeJS.Timeout>();
  /** Set while the process shuts down: a turn cut off then is interrupted, not stopped by its person. */
  let shuttingDown = false;
  /** Conversations whose turn is being set up (between the busy check and the turn registering itself). */
  const starting = new Set<string>();

  async function requireConversation(ctx: CallerContext, conversationId: string, ref: CanvasRef) {
    await authorizeProject(store, ctx, ref.projectId, 'viewer');
    const conversation = await store.chats.get(conversationId);
    if (!conversation || conversation.projectId !== ref.projectId || conversation.canvasId !== ref.canvasId) {
      throw new CanvasError('not_found', `No conversation ${conversationId} on canvas ${ref.canvasId}.`);
    }
    return conversation;
  }

  function requireOwner(ctx: CallerContext, conversation: ConversationRecord, what: string): Actor {
    const person = personOf(ctx);
    if (!person || !samePerson(conversation.owner, person)) {
      throw new CanvasError(
        'forbidden',
        `Only ${conversation.owner.subject}, whose conversation this is, may ${what}; you can follow it.`,
      );
    }
    return person;
  }

  /**
   * A new token for one turn, issued by the person (so capped by their role at every call) and bound to the chat run.
   * It reaches the conversation's canvas and the canvases the person's message named, no other.
   */
  async function turnToken(
    conversation: ConversationRecord,
    reach: readonly CanvasRef[],
  ): Promise<{ tokenId: string; secret: string }> {
    const { tokenId, secret } = await store.tokens.createToken({
      name: `Assistant for ${conversation.owner.subject}`,
      kind: 'agent',
      role: conversation.canEdit ? 'editor' : 'viewer',
      projects: [...new Set(reach.map((ref) => ref.projectId))],
      canvases: [...reach],
      workspaces: [],
      actor: null,
      expiresAt: clock() + TURN_TOKEN_MS,
      issuedBy: conversation.owner,
      purpose: 'assistant',
    });
    await store.chatRuns.bindChatRunToken(conversation.chatRunId, tokenId);
    return { tokenId, secret };
  }

  /**
   * The spend bounds over the last day (docs/chat.md, "Stop, end, limits and failures"): a person's conversations
   * together, and the project's, each under its budget before another turn starts; summed from every server's records.
   */
  async function requireDailyBudget(conversation: ConversationRecord): Promise<void> {
    const spent = await store.chats.spentSince(conversation.owner, conversation.projectId, clock() - DAY_MS);
    if (spent.person >= limits.personTokensPerDay) {
      throw new CanvasError(
        'limit_exceeded',
        `You have used your ${limits.personTokensPerDay} model tokens of the last 24 hours with the assistant: it answers again as that day's turns age out.`,
        { budget: 'person_tokens_per_day', max_tokens: limits.personTokensPerDay, spent: spent.person },
      );
    }
    if (spent.project >= limits.projectTokensPerDay) {
      throw new CanvasError(
        'limit_exceeded',
        `Project ${conversation.projectId} has used its ${limits.projectTokensPerDay} model tokens of the last 24 hours with the assistant: it answers again as that day's turns age out.`,
        { budget: 'project_tokens_per_day', max_tokens: limits.projectTokensPerDay, spent: spent.project },
      );
    }
  }

  function clearApprovalTimer(conversationId: string) {
    const timer = approvalTimers.get(conversationId);
    if (timer) clearTimeout(timer);
    approvalTimers.delete(conversationId);
  }

  /** Starts a turn on a transcript whose last message is the person's, or the assistant message answers continue. */
  async function startTurn(conversation: ConversationRecord, history: StoredChatMessage[]): Promise<LiveTurn> {
    const model = options.model;
    if (!model) throw new CanvasError('unavailable', chatModelStatus(null).message);
    clearApprovalTimer(conversation.id);
    let token: { tokenId: string; secret: string };
    starting.add(conversation.id);
    const own = { projectId: conversation.projectId, canvasId: conversation.canvasId };
    const asked = lastPersonText(history);
    const reach = [own, ...(asked ? await mentionedCanvases(store, conversation.owner, asked, own) : [])];
    let runTurn: typeof RunTurn;
    let languageModel: LanguageModel;
    try {
      // The AI SDK and the model's provider package are loaded by a process's first turn, not at its start.
      [{ runTurn }, languageModel] = await Promise.all([import('./turn.js'), model.languageModel()]);
      token = await turnToken(conversation, reach);
      await store.chats.setStatus(conversation.id, 'running');
    } finally {
      starting.delete(conversation.id);
    }
    const { tokenId, secret } = token;
    // Where the canvas stood before this turn: the automatic checkpoint's revision if the turn changes much.
    const startRevision = (await store.layout.readCanvas(own.projectId, own.canvasId))?.revision ?? 0;
    const abort = new AbortController();
    const heartbeat = setInterval(
      () => void store.chats.setStatus(conversation.id, 'running').catch(() => undefined),
      TURN_HEARTBEAT_MS,
    );
    const { chunks, done } = runTurn({
      model: languageModel,
      mcpUrl: options.mcpUrl(),
      mcpFetch: options.mcpFetch,
      token: secret,
      chatRunId: conversation.chatRunId,
      canEdit: conversation.canEdit,
      canvas: own,
      system: systemPrompt({
        projectId: conversation.projectId,
        canvasId: conversation.canvasId,
        person: conversation.owner,
        canEdit: conversation.canEdit,
      }),
      history,
      maxSteps: limits.maxSteps,
      signal: abort.signal,
      chunkTimeoutMs: limits.chunkTimeoutMs,
      lookAt: boardToLookAt(model, own, history, asked),
    });
    const turn = liveTurn(chunks);
    const settled = (async () => {
      let result: TurnResult = {
        message: null,
        tokens: 0,
        estimated: false,
        outcome: 'failed',
        error: 'The turn ended unexpectedly.',
      };
      try {
        await turn.pumped;
        result = await done;
      } catch (error) {
        logger.error({ err: error, conversation_id: conversation.id }, 'chat turn failed');
      } finally {
        clearInterval(heartbeat);
        await finishTurn(conversation, result, tokenId).catch((error: unknown) =>
          logger.error({ err: error, conversation_id: conversation.id }, 'chat turn could not be recorded'),
        );
        await checkpointBigTurn(store, conversation, startRevision, asked).catch((error: unknown) =>
          logger.warn({ err: error, conversation_id: conversation.id }, 'no checkpoint for this turn'),
        );
        live.delete(conversation.id);
        turn.end();
      }
    })();
    live.set(conversation.id, { turn, abort, settled });
    return turn;
  }

  async function finishTurn(conversation: ConversationRecord, result: TurnResult, tokenId: string): Promise<void> {
    await store.tokens.revokeToken(tokenId).catch(() => undefined);
    if (result.error)
      logger.warn({ conversation_id: conversation.id, outcome: result.outcome }, `chat turn: ${result.error}`);
    const notes: Array<Record<string, unknown>> = [];
    if (result.outcome === 'failed') notes.push({ type: 'data-turn-error', data: { message: result.error } });
    const interrupted = shuttingDown && result.outcome === 'stopped';
    if (result.outcome === 'stopped')
      notes.push({
        type: interrupted ? 'data-turn-interrupted' : 'data-turn-stopped',
        data: { at: new Date(clock()).toISOString() },
      });
    const message =
      result.message ?? (notes.length > 0 ? { id: newId('msg_'), role: 'assistant' as const, parts: [] } : null);
    if (message)
      await store.chats.saveMessage(conversation.id, {
        ...message,
        parts: [...message.parts, ...(notes as StoredChatMessage['parts'])],
      });
    await store.chats.addTokens(conversation, result.tokens, result.estimated);
    const current = await store.chats.get(conversation.id);
    if (!current || current.status === 'ended') return;
    if (result.outcome === 'awaiting_approval') {
      const expiresAt = clock() + limits.approvalMs;
      await store.chats.setStatus(conversation.id, 'awaiting_approval', expiresAt);
      approvalTimers.set(
        conversation.id,
        setTimeout(
          () =>
            void expireApprovals(conversation.id).catch((error: unknown) =>
              logger.warn({ err: error }, 'chat approval expiry failed'),
            ),
          limits.approvalMs,
        ),
      );
    } else {
      await store.chats.setStatus(conversation.id, interrupted ? 'interrupted' : 'idle');
    }
  }

  /**
   * Nobody answered in time: the model is told so, as a declined approval, and the turn goes on. The claim makes this
   * happen once, whichever server's timer or sweep gets there first, and never after the person answered.
   */
  async function expireApprovals(conversationId: string): Promise<void> {
    approvalTimers.delete(conversationId);
    if (!options.model || live.has(conversationId) || starting.has(conversationId)) return;
    if (!(await store.chats.claimApproval(conversationId, clock()))) return;
    const conversation = (await store.chats.get(conversationId))!;
    const history = await store.chats.transcript(conversationId);
    const last = history.at(-1);
    const answers = pendingApprovals(last).map((id) => ({ approval_id: id, approved: false, reason: expiredReason() }));
    if (!last || answers.length === 0) return store.chats.setStatus(conversationId, 'idle');
    const continued = answered(last, answers);
    await store.chats.saveMessage(conversationId, continued);
    await startTurn(conversation, [...history.slice(0, -1), continued]);
  }

  /** Answers every approval that expired, whichever server asked for it (one that stopped included). */
  async function sweepApprovals(): Promise<void> {
    if (!options.model || shuttingDown) return;
    for (const conversationId of await store.chats.expiredApprovals(clock())) {
      await expireApprovals(conversationId).catch((error: unknown) =>
        logger.warn({ err: error, conversation_id: conversationId }, 'chat approval expiry failed'),
      );
    }
  }
  let approvalSweep: NodeJS.Timeout | null = null;

  const expiredReason = () =>
    `Nobody approved within ${Math.round(limits.approvalMs / 60_000)} minutes: the run was not started and nothing was charged.`;

  return {
    modelStatus(): ChatModelStatus {
      return chatModelStatus(options.model);
    },

    async list(ctx: CallerContext, ref: CanvasRef): Promise<ConversationView[]> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      return (await store.chats.list(ref.projectId, ref.canvasId)).map(conversationView);
    },

    /** A new conversation for the caller: it may edit when they may. */
    async create(ctx: CallerContext, ref: CanvasRef, title?: string): Promise<ConversationView> {
      const person = personOf(ctx);
      if (!person)
        throw new CanvasError(
          'forbidden',
          'Only a signed-in person (or a backend token acting for one) talks with the canvas chat.',
        );
      const role = await authorizeProject(store, ctx, ref.projectId, 'viewer');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      if ((await store.chats.openCount(person)) >= limits.openConversationsPerPerson) {
        throw new CanvasError(
          'limit_exceeded',
          `You have ${limits.openConversationsPerPerson} open conversations with the assistant, the most one person may have: end one you no longer need first.`,
          { max_open_conversations: limits.openConversationsPerPerson },
        );
      }
      const canEdit = role !== 'viewer';
      const chatRunId = await store.chatRuns.createChatRun({
        projectId: ref.projectId,
        canvasId: ref.canvasId,
        actor: null,
        tokenId: null,
        openedBy: person,
        canEdit,
        expiresAt: null,
      });
      const conversation = await store.chats.create({
        id: newId('conv_'),
        projectId: ref.projectId,
        canvasId: ref.canvasId,
        chatRunId,
        owner: person,
        title: title ?? 'New conversation',
        canEdit,
      });
      return conversationView(conversation);
    },

    async get(
      ctx: CallerContext,
      ref: { projectId: string; canvasId: string; conversationId: string },
    ): Promise<ConversationView> {
      return conversationView(await requireConversation(ctx, ref.conversationId, ref));
    },

    async messages(
      ctx: CallerContext,
      ref: { projectId: string; canvasId: string; conversationId: string },
      page: { before?: number; limit: number },
    ) {
      await requireConversation(ctx, ref.conversationId, ref);
      const { messages, nextBefore } = await store.chats.messages(ref.conversationId, page);
      return { messages, next_before: nextBefore };
    },

    /**
     * The person's message (or their answers to approval requests) starts a turn; answers the turn as it streams.
     * Only the conversation's own person may send; everyone else who may read the canvas may watch.
     */
    async send(
      ctx: CallerContext,
      ref: { projectId: string; canvasId: string; conversationId: string },
      body: ChatSendBody,
    ): Promise<LiveTurn> {
      const conversation = await requireConversation(ctx, ref.conversationId, ref);
      requireOwner(ctx, conversation, 'write in it');
      if (conversation.status === 'ended')
        throw new CanvasError('forbidden', 'This conversation has ended: start a new one.');
      if (live.has(conversation.id) || starting.has(conversation.id) || conversation.status === 'running') {
        throw new CanvasError(
          'conversation_busy',
          'The assistant is still answering in this conversation: wait for it, or press Stop.',
        );
      }
      if (conversation.tokensUsed >= limits.tokenBudget) {
        throw new CanvasError(
          'limit_exceeded',
          `This conversation has used its ${limits.tokenBudget} model tokens: start a new conversation.`,
          {
            max_tokens: limits.tokenBudget,
          },
        );
      }
      await requireDailyBudget(conversation);
      const history = await store.chats.transcript(conversation.id);
      const last = history.at(-1);
      if (body.approvals) {
        if (conversation.status !== 'awaiting_approval' || pendingApprovals(last).length === 0) {
          throw new CanvasError('invalid_arguments', 'There is no approval waiting in this conversation.', {
            issues: [{ path: 'approvals', message: 'nothing to approve' }],
          });
        }
        if (!options.model) throw new CanvasError('unavailable', chatModelStatus(null).message);
        const expired = conversation.approvalExpiresAt !== null && conversation.approvalExpiresAt <= clock();
        // Another tab, or another server's expiry, may have answered it since it was read.
        if (!(await store.chats.claimApproval(conversation.id))) {
          throw new CanvasError(
            'conversation_busy',
            'This approval was already answered: the assistant is going on with that answer.',
          );
        }
        const answers = expired
          ? pendingApprovals(last).map((id) => ({ approval_id: id, approved: false, reason: expiredReason() }))
          : body.approvals;
        const continued = answered(last!, answers);
        await store.chats.saveMessage(conversation.id, continued);
        return startTurn(conversation, [...history.slice(0, -1), continued]);
      }
      const text = body.message!.text;
      // A person who moves on instead of answering declines what was waiting: the model is told so.
      const moved = pendingApprovals(last).map((id) => ({
        approval_id: id,
        approved: false,
        reason: 'The person sent a new message instead of approving.',
      }));
      const before = moved.length > 0 && last ? [...history.slice(0, -1), answered(last, moved)] : history;
      if (moved.length > 0 && last) await store.chats.saveMessage(conversation.id, before.at(-1)!);
      // The stored id is the server's: a page's id never names (and so never replaces) a stored message.
      const message: StoredChatMessage = {
        id: newId('msg_'),
        role: 'user',
        parts: [{ type: 'text', text }],
        metadata: { context: body.context, sent_at: new Date(clock()).toISOString(), client_id: body.message!.id },
      };
      await store.chats.appendPersonMessage(conversation.id, message, body.message!.id);
      if (history.length === 0 && conversation.title === 'New conversation')
        await store.chats.rename(conversation.id, titleOf(text));
      return startTurn(conversation, [...before, message]);
    },

    /** The turn running now, from its start (204 when none): how others watch, and how a reload picks it up. */
    async watch(
      ctx: CallerContext,
      ref: { projectId: string; canvasId: string; conversationId: string },
    ): Promise<ReadableStream<UIMessageChunk> | null> {
      await requireConversation(ctx, ref.conversationId, ref);
      return live.get(ref.conversationId)?.turn.watch() ?? null;
    },

    /** Stops the turn at once: what it already wrote stays (and is in history); the rest never happens. */
    async stop(
      ctx: CallerContext,
      ref: { projectId: string; canvasId: string; conversationId: string },
    ): Promise<ConversationView> {
      const conversation = await requireConversation(ctx, ref.conversationId, ref);
      const role = await authorizeProject(store, ctx, ref.projectId, 'viewer');
      if (role !== 'owner') requireOwner(ctx, conversation, 'stop it');
      const turn = live.get(conversation.id);
      turn?.abort.abort();
      // The answer is the conversation as the stop left it ("Stopped." recorded, idle), not as it was a moment before:
      // a page that reads the transcript right after sees the stop (bounded, should recording be slow).
      if (turn)
        await Promise.race([turn.settled, new Promise((resolve) => setTimeout(resolve, STOP_SETTLE_MS).unref())]);
      return conversationView((await store.chats.get(conversation.id))!);
    },

    /** Ends the conversation and its chat run: any later write with its id is refused. The transcript stays. */
    async end(
      ctx: CallerContext,
      ref: { projectId: string; canvasId: string; conversationId: string },
    ): Promise<ConversationView> {
      const conversation = await requireConversation(ctx, ref.conversationId, ref);
      const role = await authorizeProject(store, ctx, ref.projectId, 'viewer');
      if (role !== 'owner') requireOwner(ctx, conversation, 'end it');
      live.get(conversation.id)?.abort.abort();
      clearApprovalTimer(conversation.id);
      await store.chatRuns.endChatRun(conversation.chatRunId).catch(() => undefined);
      await store.chats.setStatus(conversation.id, 'ended');
      return conversationView((await store.chats.get(conversation.id))!);
    },

    /** Deletes the transcript (its person only); the conversation ends first. */
    async remove(
      ctx: CallerContext,
      ref: { projectId: string; canvasId: string; conversationId: string },
    ): Promise<void> {
      const conversation = await requireConversation(ctx, ref.conversationId, ref);
      requireOwner(ctx, conversation, 'delete it');
      live.get(conversation.id)?.abort.abort();
      clearApprovalTimer(conversation.id);
      await store.chatRuns.endChatRun(conversation.chatRunId).catch(() => undefined);
      await store.chats.remove(conversation.id);
    },

    /** Answers approvals that expired while no server was watching them, now and every APPROVAL_SWEEP_MS. */
    start(): void {
      if (approvalSweep || !options.model) return;
      const sweep = () =>
        void sweepApprovals().catch((error: unknown) => logger.warn({ err: error }, 'chat approval sweep failed'));
      approvalSweep = setInterval(sweep, APPROVAL_SWEEP_MS).unref();
      sweep();
    },

    /** Stops every turn of this process (shutdown): each is recorded as stopped. */
    async close(): Promise<void> {
      shuttingDown = true;
      if (approvalSweep) clearInterval(approvalSweep);
      for (const timer of approvalTimers.values()) clearTimeout(timer);
      approvalTimers.clear();
      const running = [...live.values()];
      for (const { abort } of running) abort.abort();
      await Promise.all(running.map(({ settled }) => settled));
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
