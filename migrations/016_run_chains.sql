-- "Run from here" (issue 22): a chain runs a node and everything downstream of it, each step its own node run.
-- inputs_hash is what a run was given including its upstream results (src/runs/chain-plan.ts): a later chain skips
-- a node ("cached") when its inputs hash equals that of the node's last succeeded run. NULL on runs made before.
ALTER TABLE node_runs ADD COLUMN chain_id TEXT;
ALTER TABLE node_runs ADD COLUMN inputs_hash TEXT;
CREATE INDEX node_runs_by_chain ON node_runs (chain_id);

-- A queued run is claimed only once every run it depends on has succeeded; when one of them fails or is cancelled,
-- the runs waiting on it are cancelled in the same transaction.
CREATE TABLE run_dependencies (
  run_id TEXT NOT NULL,
  depends_on TEXT NOT NULL,
  PRIMARY KEY (run_id, depends_on)
);
CREATE INDEX run_dependencies_by_upstream ON run_dependencies (depends_on);

CREATE TABLE run_chains (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  root_node_id TEXT NOT NULL,
  -- The steps in dependency order, as JSON: node id, the run started for it or the earlier run it kept (cached),
  -- and the nodes it waited for.
  steps TEXT NOT NULL,
  idempotency_key TEXT,
  triggered_kind TEXT NOT NULL,
  triggered_name TEXT,
  created_at BIGINT NOT NULL,
  UNIQUE (project_id, canvas_id, idempotency_key)
);
