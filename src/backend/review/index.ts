import type { CanvasRef } from '../../contract/index.js';
import type { Logger } from '../../shared/logger.js';
import type { Store } from '../../store/store.js';
import type { Mailer } from '../team/mailer.js';
import { createAssistantThreads, type AssistantChat } from './assistant-threads.js';
import { createGuestOperations } from './guests.js';
import { createInboxOperations, createReviewMail } from './inbox.js';
import { createReviewStateOperations } from './review-states.js';
import { createThreadOperations, type ThreadOperations } from './threads.js';

/** Review (docs/review.md): threads, review states, inboxes, guests and the assistant in threads, composed once. */
export function createReviewOperations(options: {
  store: Store;
  mailer: Mailer | null;
  publicOrigin: () => string;
  logger: Logger;
  chat: () => AssistantChat | null;
  clock?: () => number;
  /** A thread or review state of a canvas changed (the change feed of this process is poked). */
  changed?: (ref: CanvasRef) => void;
}) {
  const { store } = options;
  const mail = createReviewMail(store, options.mailer, options.publicOrigin, options.logger);
  const changed = options.changed ?? (() => undefined);
  // The assistant answers through the thread operations, which tell it when it is asked: each finds the other late.
  const assistant = createAssistantThreads(store, options.chat, () => threads, options.logger);
  const threads: ThreadOperations = createThreadOperations(store, {
    changed,
    notified: mail,
    assistantAsked: (ctx, ref, threadId, person) => assistant.asked(ctx, ref, threadId, person),
  });
  return {
    threads,
    states: createReviewStateOperations(store, { notified: mail, changed }),
    inbox: createInboxOperations(store),
    guests: createGuestOperations(store, threads, options.clock),
    assistant,
  };
}

export type ReviewOperations = ReturnType<typeof createReviewOperations>;
