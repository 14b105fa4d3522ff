import type { CanvasRef, ChatSendBody, Person, StoredChatMessage } from '../../contract/index.js';
import { personKey } from '../../contract/index.js';
import { newId } from '../../shared/ids.js';
import type { Logger } from '../../shared/logger.js';
import type { Store } from '../../store/store.js';
import type { CallerContext } from '../auth/caller.js';
import type { ThreadOperations } from './threads.js';

/**
 * The assistant in a thread (docs/review.md, "The assistant in a thread"): a person's comment that
 * mentions @assistant starts a turn of the canvas chat for that person, in a conversation kept for the thread. The
 * turn is told the thread and its node, may change the canvas like any chat turn (paid runs still wait for the
 * person's approval in the Chat tab), and its answer is posted in the thread as "Assistant for <person>". When it
 * cannot answer (no model configured, a budget spent, the conversation busy), the thread says so instead of staying
 * silent.
 */

/** What a thread needs of the canvas chat (src/agent/chat-service.ts, which sits above the backend on the ladder). */
export interface AssistantChat {
  modelStatus(): { configured: boolean };
  create(ctx: CallerContext, ref: CanvasRef, title?: string): Promise<{ conversation_id: string }>;
  send(
    ctx: CallerContext,
    ref: CanvasRef & { conversationId: string },
    body: ChatSendBody,
  ): Promise<{ watch(): ReadableStream<unknown> }>;
}

function textOf(message: StoredChatMessage | undefined): string {
  if (!message || message.role !== 'assistant') return '';
  const parts = (message.parts ?? []) as Array<{ type?: unknown; text?: unknown }>;
  return parts
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n')
    .trim();
}

const ANSWER_MAX_CHARS = 3900;

export function createAssistantThreads(
  store: Store,
  chat: () => AssistantChat | null,
  threads: () => ThreadOperations,
  logger: Logger,
) {
  /** Turns in flight, so a shutdown or a test can wait for the answers. */
  const inFlight = new Set<Promise<void>>();

  async function answer(ctx: CallerContext, ref: CanvasRef, threadId: string, person: Person): Promise<void> {
    const say = (body: string) =>
      threads().reply(
        null,
        ref,
        threadId,
        { body: body.slice(0, ANSWER_MAX_CHARS) },
        { kind: 'assistant', forPerson: person },
      );
    const service = chat();
    if (!service?.modelStatus().configured) {
      await say('I cannot answer here: the assistant has no model configured on this server (see the Chat tab).');
      return;
    }
    const thread = await store.review.thread(ref.projectId, ref.canvasId, threadId);
    const listed = (await store.review.threads(ref.projectId, ref.canvasId, { threadIds: [threadId] }))[0];
    if (!thread || !listed) return;
    const conversations = JSON.parse(thread.assistant_conversations) as Record<string, string>;
    const key = personKey(person);
    let conversationId = conversations[key];
    const known = conversationId ? await store.chats.get(conversationId) : undefined;
    if (!known || known.status === 'ended') {
      conversationId = (await service.create(ctx, ref, `Thread: ${thread.node_label || 'the canvas'}`)).conversation_id;
      await store.review.setAssistantConversations(threadId, { ...conversations, [key]: conversationId! });
    }
    const where = thread.node_id
      ? `node ${thread.node_id}${thread.shot_id ? `, shot ${thread.shot_id}` : ''} ("${thread.node_label}")`
      : 'the canvas as a whole';
    const transcript = listed.comments
      .filter((comment) => comment.deleted_at === null)
      .map((comment) => `${comment.author_name}: ${comment.body}`)
      .join('\n');
    const text = [
      `You were asked in a comment thread on ${where}. The thread so far:`,
      transcript,
      '',
      'Do what the last comment asks (read the canvas first; change it only as asked). Your final answer is posted in the thread: say briefly what you did.',
    ].join('\n');
    const turn = await service.send(
      ctx,
      { ...ref, conversationId: conversationId! },
      { message: { id: newId('thread_msg_'), text }, context: { selection: thread.node_id ? [thread.node_id] : [] } },
    );
    // The turn runs on the server; its stream ends once the answer is recorded.
    const reader = turn.watch().getReader();
    while (!(await reader.read()).done);
    const after = await store.chats.get(conversationId!);
    const last = (await store.chats.transcript(conversationId!)).at(-1);
    const said = textOf(last) || 'I could not finish an answer: see the Chat tab for what happened.';
    await say(
      after?.status === 'awaiting_approval'
        ? `${said}\n\nA paid run waits for your approval in the Chat tab ("${known?.title ?? `Thread: ${thread.node_label}`}").`
        : said,
    );
  }

  return {
    /** Starts the answer and returns at once; failures are said in the thread and logged. */
    asked(ctx: CallerContext, ref: CanvasRef, threadId: string, person: Person): void {
      const work = answer(ctx, ref, threadId, person)
        .catch(async (error: unknown) => {
          logger.warn({ err: error, thread_id: threadId }, 'the assistant could not answer in a thread');
          const message = error instanceof Error ? error.message : 'something went wrong';
          await threads()
            .reply(
              null,
              ref,
              threadId,
              { body: `I could not answer: ${message}` },
              { kind: 'assistant', forPerson: person },
            )
            .catch(() => undefined);
        })
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    },

    async settled(): Promise<void> {
      await Promise.all([...inFlight]);
    },
  };
}

export type AssistantThreads = ReturnType<typeof createAssistantThreads>;
