-- The canvas chat (issue 18): conversations of people with the in-product assistant, and their transcripts. Each
-- conversation is a chat run bound to the person; its agent token (one per turn, revoked when the turn ends) is
-- marked as the assistant's, which may also start runs (with the person's approval, asked in the chat).
ALTER TABLE tokens ADD COLUMN purpose TEXT;

CREATE TABLE chat_conversations (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  chat_run_id TEXT NOT NULL REFERENCES chat_runs (id),
  owner_issuer TEXT NOT NULL,
  owner_subject TEXT NOT NULL,
  title TEXT NOT NULL,
  -- idle: ready for a message; running: a turn is under way; awaiting_approval: the assistant asked to start a paid
  -- run; interrupted: a turn was cut off (a restart); ended: its chat run is over, it only reads.
  status TEXT NOT NULL CHECK (status IN ('idle', 'running', 'awaiting_approval', 'interrupted', 'ended')),
  can_edit INTEGER NOT NULL CHECK (can_edit IN (0, 1)),
  approval_expires_at BIGINT,
  next_seq BIGINT NOT NULL DEFAULT 1,
  tokens_used BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  FOREIGN KEY (project_id, canvas_id) REFERENCES canvases (project_id, id)
);
CREATE INDEX chat_conversations_by_canvas ON chat_conversations (project_id, canvas_id, updated_at);

-- Each message as the AI SDK's UIMessage JSON (text, tool calls with their results, approvals), in order.
CREATE TABLE chat_messages (
  conversation_id TEXT NOT NULL REFERENCES chat_conversations (id),
  seq BIGINT NOT NULL,
  id TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  body TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (conversation_id, seq)
);
CREATE UNIQUE INDEX chat_messages_by_id ON chat_messages (conversation_id, id);
