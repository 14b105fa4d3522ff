-- Assets produced by node runs. The bytes live in files under the data dir (assets/<id>); this row says what they
-- are, so the backend can serve them at a stable URL (/assets/<id>).
CREATE TABLE assets (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  run_id TEXT NOT NULL REFERENCES node_runs (id),
  kind TEXT NOT NULL CHECK (kind IN ('image', 'audio', 'json')),
  mime_type TEXT NOT NULL,
  byte_size BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX assets_by_run ON assets (run_id);

-- Runs a worker must pick up again or fail: those whose lease has run out.
CREATE INDEX node_runs_by_lease ON node_runs (status, lease_expires_at);
