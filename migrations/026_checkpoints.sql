-- Checkpoints (issue 34, item 5): a named revision of a canvas to come back to (restoring is a revert to it, a new
-- revision: nothing is lost). People name them; one is taken on its own before an assistant's turn that changed more
-- than a handful of nodes (kind 'auto').
CREATE TABLE canvas_checkpoints (
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  revision BIGINT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('named', 'auto')),
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, canvas_id, id)
);
