-- Portable SQL: runs unchanged on SQLite and PostgreSQL. Times are milliseconds since the epoch (BIGINT);
-- flags are INTEGER 0/1; JSON documents are TEXT (stored canonical, served without re-serializing).

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  created_at BIGINT NOT NULL
);

CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  budget_credits DOUBLE PRECISION,
  spent_credits DOUBLE PRECISION NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);

CREATE TABLE canvases (
  project_id TEXT NOT NULL REFERENCES projects (id),
  id TEXT NOT NULL,
  -- Bumped by exactly 1 per layout write, inside the transaction that checks it.
  revision BIGINT NOT NULL DEFAULT 0,
  -- Bumped whenever a node run of this canvas changes (node_states), never touching the layout.
  states_version BIGINT NOT NULL DEFAULT 0,
  locked INTEGER NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
  -- Creation order of layout objects; parents always precede their children.
  next_seq BIGINT NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, id)
);

CREATE TABLE canvas_nodes (
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  type TEXT NOT NULL,
  parent_id TEXT,
  body TEXT NOT NULL,
  created_revision BIGINT NOT NULL,
  updated_revision BIGINT NOT NULL,
  PRIMARY KEY (project_id, canvas_id, id),
  FOREIGN KEY (project_id, canvas_id) REFERENCES canvases (project_id, id)
);
CREATE INDEX canvas_nodes_by_seq ON canvas_nodes (project_id, canvas_id, seq);
CREATE INDEX canvas_nodes_by_parent ON canvas_nodes (project_id, canvas_id, parent_id);

CREATE TABLE canvas_edges (
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  source TEXT NOT NULL,
  target TEXT NOT NULL,
  body TEXT NOT NULL,
  created_revision BIGINT NOT NULL,
  PRIMARY KEY (project_id, canvas_id, id),
  FOREIGN KEY (project_id, canvas_id) REFERENCES canvases (project_id, id)
);
CREATE INDEX canvas_edges_by_seq ON canvas_edges (project_id, canvas_id, seq);
CREATE INDEX canvas_edges_by_source ON canvas_edges (project_id, canvas_id, source);
CREATE INDEX canvas_edges_by_target ON canvas_edges (project_id, canvas_id, target);

-- What each revision changed: readers catch up incrementally and conflicts name the nodes that moved on.
CREATE TABLE canvas_changes (
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  revision BIGINT NOT NULL,
  object_kind TEXT NOT NULL CHECK (object_kind IN ('node', 'edge')),
  object_id TEXT NOT NULL,
  change TEXT NOT NULL CHECK (change IN ('create', 'update', 'delete')),
  PRIMARY KEY (project_id, canvas_id, revision, object_kind, object_id)
);

-- Receipts of successful saves that carried a client_save_id: a retry replays the stored receipt.
CREATE TABLE save_receipts (
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  client_save_id TEXT NOT NULL,
  payload_hash TEXT NOT NULL,
  receipt TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, canvas_id, client_save_id)
);

CREATE TABLE project_members (
  project_id TEXT NOT NULL REFERENCES projects (id),
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, issuer, subject)
);

-- Tokens are stored as SHA-256 of the secret; the secret itself is shown once, at creation.
CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('agent', 'backend', 'gateway')),
  secret_hash TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('viewer', 'editor')),
  actor_issuer TEXT,
  actor_subject TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT,
  revoked_at BIGINT,
  CHECK ((actor_issuer IS NULL) = (actor_subject IS NULL))
);

CREATE TABLE token_scopes (
  token_id TEXT NOT NULL REFERENCES tokens (id),
  scope_kind TEXT NOT NULL CHECK (scope_kind IN ('project', 'workspace')),
  scope_id TEXT NOT NULL,
  PRIMARY KEY (token_id, scope_kind, scope_id)
);

-- Canvas chat runs: the agent conversations a canvas edit authorization is bound to (X-Agent-Run-Id).
CREATE TABLE chat_runs (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  actor_issuer TEXT,
  actor_subject TEXT,
  can_edit INTEGER NOT NULL CHECK (can_edit IN (0, 1)),
  created_at BIGINT NOT NULL,
  expires_at BIGINT,
  ended_at BIGINT,
  FOREIGN KEY (project_id, canvas_id) REFERENCES canvases (project_id, id),
  CHECK ((actor_issuer IS NULL) = (actor_subject IS NULL))
);

CREATE TABLE node_runs (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  skill_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'cancel_requested', 'succeeded', 'failed', 'cancelled')),
  input TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  progress_percent DOUBLE PRECISION,
  progress_message TEXT,
  outputs TEXT NOT NULL DEFAULT '[]',
  resources TEXT NOT NULL DEFAULT '[]',
  error_code TEXT,
  error_message TEXT,
  cost_estimated DOUBLE PRECISION NOT NULL,
  cost_charged DOUBLE PRECISION,
  triggered_kind TEXT NOT NULL CHECK (triggered_kind IN ('user', 'agent', 'system')),
  triggered_name TEXT,
  idempotency_key TEXT,
  attempt INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL DEFAULT 3,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT,
  cancel_requested_at BIGINT,
  updated_at BIGINT NOT NULL,
  FOREIGN KEY (project_id, canvas_id) REFERENCES canvases (project_id, id)
);
CREATE UNIQUE INDEX node_runs_idempotency ON node_runs (project_id, canvas_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX node_runs_by_node ON node_runs (project_id, canvas_id, node_id, created_at);
CREATE INDEX node_runs_claimable ON node_runs (status, created_at);
