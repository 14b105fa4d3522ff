-- Run approvals (issue 34, item 6): a paid run an external agent submits without a way to ask its person in the call
-- (a client without elicitation, or the 2025 protocol era) waits here for a person's yes in the canvas. The agent's
-- retry with the same idempotency key then submits it; nothing is charged before the yes.
CREATE TABLE run_approvals (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  agent_name TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  estimate DOUBLE PRECISION NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'declined')),
  requested_at BIGINT NOT NULL,
  decided_by TEXT,
  decided_at BIGINT,
  UNIQUE (token_id, project_id, canvas_id, node_id, idempotency_key)
);
CREATE INDEX run_approvals_by_canvas ON run_approvals (project_id, canvas_id, status);
