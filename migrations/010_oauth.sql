-- OAuth 2.1 for MCP clients (issue 20; docs/security.md, "Connectors").
--
-- The authorization server's own records (oidc-provider: clients registered dynamically, interactions, sessions,
-- authorization codes, access and refresh tokens, grants), one row per record, shared by every server process.
-- Token values are never stored: oidc-provider keys opaque tokens by their id, and the payload holds no secret.
CREATE TABLE oauth_records (
  model TEXT NOT NULL,
  id TEXT NOT NULL,
  payload TEXT NOT NULL,
  grant_id TEXT,
  uid TEXT,
  expires_at BIGINT,
  consumed_at BIGINT,
  PRIMARY KEY (model, id)
);
CREATE INDEX oauth_records_by_grant ON oauth_records (grant_id);
CREATE INDEX oauth_records_by_uid ON oauth_records (uid);
CREATE INDEX oauth_records_by_expiry ON oauth_records (expires_at);

-- What a person approved for a client: one canvas, its scopes, and how it acts there. Each grant acts through an
-- agent token issued by that person (never shown to anyone) and, when it may edit, a chat run bound to that token:
-- the same permission model as every other agent.
CREATE TABLE oauth_grants (
  grant_id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  client_name TEXT,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  scopes TEXT NOT NULL,
  token_id TEXT NOT NULL,
  chat_run_id TEXT,
  spend_limit DOUBLE PRECISION,
  spent DOUBLE PRECISION NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  ended_at BIGINT
);
CREATE INDEX oauth_grants_by_canvas ON oauth_grants (project_id, canvas_id);
CREATE INDEX oauth_grants_by_person ON oauth_grants (issuer, subject);
