-- What each chat turn cost in model tokens, by whom and where (issue 29, items 5 and 12): a person's and a project's
-- spend over a window is summed from these rows, on every server of the database.
CREATE TABLE chat_usage (
  id TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  owner_issuer TEXT NOT NULL,
  owner_subject TEXT NOT NULL,
  tokens BIGINT NOT NULL,
  -- 1 when the provider reported no usage and the tokens are an estimate from the bytes sent and received.
  estimated INTEGER NOT NULL DEFAULT 0 CHECK (estimated IN (0, 1)),
  at BIGINT NOT NULL
);
CREATE INDEX chat_usage_by_person ON chat_usage (owner_issuer, owner_subject, at);
CREATE INDEX chat_usage_by_project ON chat_usage (project_id, at);
CREATE INDEX chat_conversations_by_owner ON chat_conversations (owner_issuer, owner_subject, status);
