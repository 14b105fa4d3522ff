-- Save receipts keyed by the SHA-256 of client_save_id and the payload: client_save_id only correlates a receipt
-- (spec: Tool notes 7), so the same id with another payload is a new write with its own receipt, and any string the
-- spec allows (U+0000 included) fits on both databases. Receipts stored before this migration keep their rows but
-- are no longer replayed (their key is marked legacy).
CREATE TABLE save_receipts_next (
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  client_save_key TEXT NOT NULL,
  payload_hash TEXT NOT NULL,
  receipt TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, canvas_id, client_save_key, payload_hash)
);
INSERT INTO save_receipts_next (project_id, canvas_id, client_save_key, payload_hash, receipt, created_at)
  SELECT project_id, canvas_id, 'legacy:' || client_save_id, payload_hash, receipt, created_at FROM save_receipts;
DROP TABLE save_receipts;
ALTER TABLE save_receipts_next RENAME TO save_receipts;

-- Which incarnation of a node a run belongs to: the node's creation sequence number. A node deleted and created
-- again with the same id has a new seq, so it never shows an older node's runs.
ALTER TABLE node_runs ADD COLUMN node_seq BIGINT NOT NULL DEFAULT 0;
UPDATE node_runs SET node_seq = COALESCE(
  (SELECT n.seq FROM canvas_nodes n
   WHERE n.project_id = node_runs.project_id AND n.canvas_id = node_runs.canvas_id AND n.id = node_runs.node_id),
  0);

-- A chat run is bound to its presenter: the one token that may present it, and/or the person it acts for. It also
-- records who opened it (NULL: an administrator).
ALTER TABLE chat_runs ADD COLUMN token_id TEXT;
ALTER TABLE chat_runs ADD COLUMN opened_by_issuer TEXT;
ALTER TABLE chat_runs ADD COLUMN opened_by_subject TEXT;

-- Size of each canvas, kept by every write, so the documented caps cost no count.
ALTER TABLE canvases ADD COLUMN node_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE canvases ADD COLUMN edge_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE canvases ADD COLUMN layout_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE canvases SET
  node_count = (SELECT COUNT(*) FROM canvas_nodes n WHERE n.project_id = canvases.project_id AND n.canvas_id = canvases.id),
  edge_count = (SELECT COUNT(*) FROM canvas_edges e WHERE e.project_id = canvases.project_id AND e.canvas_id = canvases.id),
  layout_bytes =
    (SELECT COALESCE(SUM(LENGTH(n.body)), 0) FROM canvas_nodes n WHERE n.project_id = canvases.project_id AND n.canvas_id = canvases.id) +
    (SELECT COALESCE(SUM(LENGTH(e.body)), 0) FROM canvas_edges e WHERE e.project_id = canvases.project_id AND e.canvas_id = canvases.id);

-- The change log keeps the body each change left (NULL for a delete, and for changes logged before this
-- migration): the feed replays missed revisions from it and revert rebuilds an earlier layout from it.
ALTER TABLE canvas_changes ADD COLUMN body TEXT;
ALTER TABLE canvas_changes ADD COLUMN has_body INTEGER NOT NULL DEFAULT 0 CHECK (has_body IN (0, 1));
CREATE INDEX canvas_changes_by_object ON canvas_changes (project_id, canvas_id, object_kind, object_id, revision);

-- Who made each revision, and when: a person, an agent (its token, its chat run, the person it acts for) or the
-- system.
CREATE TABLE canvas_revisions (
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  revision BIGINT NOT NULL,
  author_kind TEXT NOT NULL CHECK (author_kind IN ('person', 'agent', 'system')),
  token_id TEXT,
  agent_run_id TEXT,
  issuer TEXT,
  subject TEXT,
  operation TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, canvas_id, revision),
  FOREIGN KEY (project_id, canvas_id) REFERENCES canvases (project_id, id)
);

-- Runs of generation-shaped nodes produce videos and 3D models too: the asset kinds widen (a CHECK cannot be
-- altered in SQLite, so the table is rebuilt).
CREATE TABLE assets_next (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  run_id TEXT NOT NULL REFERENCES node_runs (id),
  kind TEXT NOT NULL CHECK (kind IN ('image', 'audio', 'video', 'model', 'json')),
  mime_type TEXT NOT NULL,
  byte_size BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
INSERT INTO assets_next (id, project_id, canvas_id, run_id, kind, mime_type, byte_size, created_at)
  SELECT id, project_id, canvas_id, run_id, kind, mime_type, byte_size, created_at FROM assets;
DROP TABLE assets;
ALTER TABLE assets_next RENAME TO assets;
CREATE INDEX assets_by_run ON assets (run_id);
