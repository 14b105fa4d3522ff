import { useChat } from '@ai-sdk/react';
import { useReactFlow } from '@xyflow/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  dataOf,
  type ChatContext,
  type ChatModelStatus,
  type ConversationView,
  type RunEstimate,
} from '../../../../src/contract/index.js';
import { samePerson } from '../../../../src/contract/person.js';
import { useCanvas, useCanvasState, useEditable } from '../../ui/canvas-context.js';
import type { FlowNode } from '../../cards/card-data.js';
import { api } from '../../model/api.js';
import { undoAgentChanges } from '../../model/agent-undo.js';
import { markFirstStep } from '../../model/first-steps.js';
import { chatApi, chatTransport, freeSpot, newMessageId, toolLine, toolWord } from '../../model/chat.js';
import { credits } from '../../model/values.js';
import { Select } from '../../ui/select.js';

/**
 * The Chat tab (docs/chat.md): the canvas's conversations with the in-product assistant. The person who owns a
 * conversation writes in it, sees each step the agent takes as one line linked to its node, approves or declines a
 * paid run, and can stop a turn; everyone else on the canvas watches it live. The model and its key stay on the
 * server; the page streams turns with the AI SDK's useChat.
 */

const POLL_MS = 3000;
const STATUS_WORDS: Record<ConversationView['status'], string> = {
  idle: '',
  running: 'answering…',
  awaiting_approval: 'waiting for approval',
  interrupted: 'interrupted',
  ended: 'ended',
};

export function ChatPanel() {
  const address = useCanvasState((state) => state.address);
  const person = useCanvasState((state) => state.person);
  const [model, setModel] = useState<ChatModelStatus | null>(null);
  const [conversations, setConversations] = useState<ConversationView[]>([]);
  const [openId, setOpenId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      const { conversations: listed } = await chatApi.list(address);
      setConversations(listed);
      setOpenId(
        (current) =>
          current ??
          listed.find((entry) => samePerson(entry.owner, person) && entry.status !== 'ended')?.conversation_id ??
          null,
      );
    } catch (failure) {
      setProblem((failure as Error).message);
    }
  }, [address, person]);

  useEffect(() => {
    chatApi.model().then(setModel, (failure: Error) => setProblem(failure.message));
    void refresh();
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  // What the person typed before any conversation was open: the new conversation's first message.
  const [firstMessage, setFirstMessage] = useState<string | null>(null);
  const startConversation = async (first?: string) => {
    try {
      const created = await chatApi.create(address);
      setFirstMessage(first ?? null);
      setConversations((current) => [created, ...current]);
      setOpenId(created.conversation_id);
    } catch (failure) {
      setProblem((failure as Error).message);
    }
  };

  const open = conversations.find((entry) => entry.conversation_id === openId) ?? null;
  return (
    <div className="chat">
      {model && !model.configured ? (
        <p className="chat-setup" role="note">
          {model.message} Until then, your own agent can work on this canvas: see the Agents tab.
        </p>
      ) : null}
      {problem ? <p className="error-line">{problem}</p> : null}
      <div className="chat-conversations">
        <label className="chat-pick">
          <span className="visually-hidden">Conversation</span>
          <Select
            label="Conversation"
            value={openId ?? ''}
            onChange={(next) => setOpenId(next || null)}
            options={[
              { value: '', label: conversations.length === 0 ? 'No conversations yet' : 'Choose a conversation' },
              ...conversations.map((entry) => ({
                value: entry.conversation_id,
                label: `${entry.title} · ${entry.owner.subject}${STATUS_WORDS[entry.status] ? ` · ${STATUS_WORDS[entry.status]}` : ''}`,
              })),
            ]}
          />
        </label>
        <button
          type="button"
          className="button-small"
          disabled={model?.configured === false}
          onClick={() => void startConversation()}
        >
          New conversation
        </button>
      </div>
      {!open && model?.configured !== false ? <FirstMessage onSend={(text) => void startConversation(text)} /> : null}
      {open ? (
        <ConversationLoader
          key={open.conversation_id}
          view={open}
          firstMessage={firstMessage}
          onFirstSent={() => setFirstMessage(null)}
          mine={samePerson(open.owner, person)}
          onChanged={refresh}
          onDeleted={() => {
            setOpenId(null);
            void refresh();
          }}
        />
      ) : null}
    </div>
  );
}

/** Typing in the Chat tab starts a conversation: no separate click first. */
function FirstMessage({ onSend }: { onSend: (text: string) => void }) {
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const send = () => {
    const text = draft.trim();
    if (!text || sending) return;
    setSending(true);
    onSend(text);
  };
  return (
    <div className="chat-compose">
      <label className="chat-label" htmlFor="chat-input-first">
        Message
      </label>
      <textarea
        id="chat-input-first"
        value={draft}
        rows={3}
        placeholder="Ask the assistant about this canvas, or to change it…"
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div className="chat-actions">
        <button
          type="button"
          className="button-small button-primary"
          disabled={sending || draft.trim() === ''}
          onClick={send}
        >
          Send
        </button>
      </div>
    </div>
  );
}

interface ConversationProps {
  view: ConversationView;
  mine: boolean;
  /** A message to send as soon as the conversation is open (typed before it existed). */
  firstMessage?: string | null;
  onFirstSent?: () => void;
  onChanged: () => Promise<void>;
  onDeleted: () => void;
}

/** Reads the stored transcript, then opens the live conversation on it. */
function ConversationLoader(props: ConversationProps) {
  const address = useCanvasState((state) => state.address);
  const [initial, setInitial] = useState<UIMessage[] | null>(null);
  useEffect(() => {
    chatApi.messages(address, props.view.conversation_id).then(
      (page) => setInitial(page.messages as UIMessage[]),
      () => setInitial([]),
    );
  }, [address, props.view.conversation_id]);
  if (!initial) return <p className="muted">Opening the conversation…</p>;
  return <Conversation {...props} initial={initial} />;
}

function Conversation({
  view,
  mine,
  initial,
  onChanged,
  onDeleted,
  firstMessage,
  onFirstSent,
}: ConversationProps & { initial: UIMessage[] }) {
  const address = useCanvasState((state) => state.address);
  const nodes = useCanvasState((state) => state.layout.nodes);
  const editable = useEditable();
  const { controller } = useCanvas();
  const flow = useReactFlow<FlowNode>();
  const [draft, setDraft] = useState('');
  const listEnd = useRef<HTMLDivElement>(null);

  /** Where the person is on the canvas when they send: the selection, the view, a free spot (model/chat.ts). */
  const context = useCallback((): ChatContext => {
    const selection = flow
      .getNodes()
      .filter((node) => node.selected)
      .map((node) => node.id);
    const pane = document.querySelector('.react-flow')?.getBoundingClientRect();
    const { x, y, zoom } = flow.getViewport();
    const viewport = pane
      ? { x: -x / zoom, y: -y / zoom, width: pane.width / zoom, height: pane.height / zoom, zoom }
      : undefined;
    const centre = viewport
      ? { x: viewport.x + viewport.width / 2, y: viewport.y + viewport.height / 2 }
      : { x: 0, y: 0 };
    return { selection, ...(viewport ? { viewport } : {}), free_spot: freeSpot(nodes, selection, centre) };
  }, [flow, nodes]);
  const contextRef = useRef(context);
  contextRef.current = context;

  const transport = useMemo(
    () => chatTransport(address, view.conversation_id, () => contextRef.current()),
    [address, view.conversation_id],
  );
  const { messages, setMessages, sendMessage, status, error, stop, resumeStream, addToolApprovalResponse } = useChat({
    id: view.conversation_id,
    messages: initial,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    resume: view.status === 'running',
  });
  const busy = status === 'submitted' || status === 'streaming';

  // Someone else's turn (or this person's, from another tab) is watched live; once any turn ends, the transcript is
  // read again as the server recorded it.
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (!busy && view.status === 'running') void resumeStream();
  }, [busy, view.status, resumeStream]);
  useEffect(() => {
    if (wasBusy.current && !busy) {
      void chatApi.messages(address, view.conversation_id).then((page) => setMessages(page.messages as UIMessage[]));
      void onChanged();
    }
    wasBusy.current = busy;
  }, [busy, address, view.conversation_id, setMessages, onChanged]);
  useEffect(() => {
    // In a block: newer browsers answer scrollIntoView with a promise, which an effect must not return.
    listEnd.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  const names = useMemo(
    () => new Map(nodes.map((node) => [node.id, node.data.displayName ?? dataOf(node, 'groupNode')?.label ?? node.id])),
    [nodes],
  );
  const showNode = (nodeId: string) => void flow.fitView({ nodes: [{ id: nodeId }], duration: 300, maxZoom: 1.2 });
  const canWrite = mine && view.status !== 'ended';

  const send = () => {
    const text = draft.trim();
    if (!text || busy) return;
    setDraft('');
    void sendMessage({ id: newMessageId(), role: 'user', parts: [{ type: 'text', text }] });
    markFirstStep('askAssistant');
  };
  // The message typed before this conversation existed goes out once, as soon as it is open.
  const firstSent = useRef(false);
  useEffect(() => {
    if (!firstMessage || firstSent.current || !canWrite) return;
    firstSent.current = true;
    onFirstSent?.();
    void sendMessage({ id: newMessageId(), role: 'user', parts: [{ type: 'text', text: firstMessage }] });
    markFirstStep('askAssistant');
  }, [firstMessage, canWrite, onFirstSent, sendMessage]);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  return (
    <section
      className="chat-conversation"
      aria-label={`Conversation: ${view.title}`}
      data-conversation={view.conversation_id}
    >
      <header className="chat-head">
        <span className="chat-title">{view.title}</span>
        <span className="muted">
          {mine ? 'you' : view.owner.subject}
          {view.can_edit ? '' : ' · read only'}
          {STATUS_WORDS[view.status] ? ` · ${STATUS_WORDS[view.status]}` : ''}
        </span>
        {mine && view.status !== 'ended' ? (
          <button
            type="button"
            className="button-small"
            onClick={() => void chatApi.end(address, view.conversation_id).then(onChanged)}
          >
            End
          </button>
        ) : null}
        {editable ? (
          <button
            type="button"
            className="button-small"
            title="Put back what the assistant changed in this conversation; what people changed since stays"
            onClick={() => void undoAgentChanges(controller, view.agent_run_id, 'the assistant')}
          >
            Undo its changes
          </button>
        ) : null}
        {mine ? (
          <button
            type="button"
            className="button-small"
            onClick={() => {
              if (
                window.confirm(
                  'Delete this conversation and its transcript? What the assistant changed stays in the history.',
                )
              ) {
                void chatApi.remove(address, view.conversation_id).then(onDeleted);
              }
            }}
          >
            Delete
          </button>
        ) : null}
      </header>
      <ol className="chat-messages" aria-live="polite">
        {messages.map((message) => (
          <li key={message.id} className={`chat-message chat-${message.role}`}>
            {message.parts.map((part, index) => (
              <MessagePart
                key={`${message.id}-${index}`}
                part={part}
                names={names}
                onShow={showNode}
                canApprove={canWrite && editable && !busy}
                onAnswer={(id, approved) =>
                  void addToolApprovalResponse({
                    id,
                    approved,
                    ...(approved ? {} : { reason: 'Declined in the chat.' }),
                  })
                }
              />
            ))}
          </li>
        ))}
      </ol>
      {error ? <p className="error-line">{error.message}</p> : null}
      <div ref={listEnd} />
      {canWrite ? (
        <div className="chat-compose">
          <label className="chat-label" htmlFor={`chat-input-${view.conversation_id}`}>
            Message
          </label>
          <textarea
            id={`chat-input-${view.conversation_id}`}
            value={draft}
            rows={3}
            placeholder={
              view.can_edit
                ? 'Ask the assistant to change this canvas…'
                : 'Ask about this canvas (you can view it only)…'
            }
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <div className="chat-actions">
            {busy ? (
              <button
                type="button"
                className="button-small"
                onClick={() => {
                  // The server answers once the stop is recorded; the page stops reading after, so the transcript it
                  // reads next shows "Stopped.".
                  void chatApi
                    .stop(address, view.conversation_id)
                    .catch(() => undefined)
                    .then(() => stop());
                }}
              >
                Stop
              </button>
            ) : null}
            <button
              type="button"
              className="button-small button-primary"
              disabled={busy || draft.trim() === ''}
              onClick={send}
            >
              Send
            </button>
          </div>
        </div>
      ) : (
        <p className="muted chat-watching">
          {view.status === 'ended'
            ? 'This conversation has ended.'
            : `You are following ${view.owner.subject}'s conversation.`}
        </p>
      )}
    </section>
  );
}

interface PartProps {
  part: UIMessage['parts'][number];
  names: Map<string, string>;
  onShow: (nodeId: string) => void;
  canApprove: boolean;
  onAnswer: (approvalId: string, approved: boolean) => void;
}

const OUTCOME_WORDS = {
  running: '…',
  done: '',
  conflict: 'conflict: re-reading',
  refused: 'refused',
  waiting: 'waiting for approval',
  declined: 'declined',
} as const;

function MessagePart({ part, names, onShow, canApprove, onAnswer }: PartProps) {
  if (part.type === 'text') return <p className="chat-text">{part.text}</p>;
  if (part.type === 'data-turn-error')
    return <p className="error-line">{(part.data as { message?: string }).message}</p>;
  if (part.type === 'data-turn-stopped') return <p className="muted">Stopped.</p>;
  if (part.type === 'data-turn-interrupted')
    return <p className="muted">Interrupted: the server stopped during this turn. Send your message again.</p>;
  // The assistant reached beyond this canvas (only canvases the person named): said where, so nothing is hidden.
  if (part.type === 'data-other-canvas') {
    const read = part.data as { project_id: string; canvas_id: string };
    return (
      <p className="chat-note" role="note">
        Read another canvas: {read.canvas_id} (project {read.project_id})
      </p>
    );
  }
  if (part.type === 'data-cross-canvas-write') {
    const write = part.data as { read_from: Array<{ canvas_id: string }> };
    return (
      <p className="chat-note" role="note">
        This change may copy content from {write.read_from.map((each) => each.canvas_id).join(', ')}
      </p>
    );
  }
  if (part.type !== 'dynamic-tool' && !part.type.startsWith('tool-')) return null;
  const tool = part as {
    toolName?: string;
    type: string;
    state?: string;
    input?: unknown;
    output?: unknown;
    errorText?: string;
    approval?: { id: string };
  };
  const line = toolLine(tool);
  const label = line.nodeId ? (names.get(line.nodeId) ?? line.nodeId) : null;
  if (tool.state === 'approval-requested' && line.nodeId && tool.approval) {
    return (
      <ApprovalCard
        nodeId={line.nodeId}
        label={label ?? line.nodeId}
        approvalId={tool.approval.id}
        canApprove={canApprove}
        onAnswer={onAnswer}
      />
    );
  }
  return (
    <div className={`chat-tool chat-tool-${line.outcome}`} data-tool={line.tool}>
      <span className="chat-tool-name">{toolWord(line.tool)}</span>
      {line.nodeId ? (
        <button
          type="button"
          className="link-button"
          onClick={() => onShow(line.nodeId!)}
          title="Show it on the canvas"
        >
          {label}
        </button>
      ) : null}
      {line.revision !== null ? <span className="chip">r{line.revision}</span> : null}
      {OUTCOME_WORDS[line.outcome] ? (
        <span className={`chat-outcome chat-outcome-${line.outcome}`}>{OUTCOME_WORDS[line.outcome]}</span>
      ) : null}
      {line.detail && line.outcome !== 'done' ? <span className="muted chat-tool-detail">{line.detail}</span> : null}
      {line.detail && line.outcome === 'done' ? <span className="muted">{line.detail}</span> : null}
    </div>
  );
}

/** A paid run waits for the person: what it is for, what it costs, and what the project has left. */
function ApprovalCard({
  nodeId,
  label,
  approvalId,
  canApprove,
  onAnswer,
}: {
  nodeId: string;
  label: string;
  approvalId: string;
  canApprove: boolean;
  onAnswer: PartProps['onAnswer'];
}) {
  const address = useCanvasState((state) => state.address);
  const [estimate, setEstimate] = useState<RunEstimate | null>(null);
  useEffect(() => {
    api.estimate(address, nodeId).then(setEstimate, () => setEstimate(null));
  }, [address, nodeId]);
  const left = estimate?.budget.left;
  return (
    <div className="chat-approval" role="group" aria-label={`Approve a run of ${label}`}>
      <p>
        The assistant wants to start a paid run of <strong>{label}</strong>
        {estimate ? (
          <>
            : about {credits(estimate.cost.estimated)};{' '}
            {left === null || left === undefined ? 'no budget limit' : `${credits(left)} left in the budget`}.
          </>
        ) : (
          '.'
        )}
      </p>
      {canApprove ? (
        <div className="chat-actions">
          <button type="button" className="button-small button-primary" onClick={() => onAnswer(approvalId, true)}>
            Approve
          </button>
          <button type="button" className="button-small" onClick={() => onAnswer(approvalId, false)}>
            Decline
          </button>
        </div>
      ) : (
        <p className="muted">Waiting for its person to approve or decline.</p>
      )}
    </div>
  );
}
