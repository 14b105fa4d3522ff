-- Submission order of node runs within a canvas. created_at has millisecond resolution, so two runs submitted in the
-- same millisecond tied and "the latest run of a node" fell back to comparing random ids. seq is taken from the
-- canvas row inside the submitting transaction (the row is locked there), so it is unique and increasing per canvas.
ALTER TABLE canvases ADD COLUMN next_run_seq BIGINT NOT NULL DEFAULT 1;
ALTER TABLE node_runs ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;

UPDATE node_runs SET seq = numbered.position
FROM (
  SELECT id, ROW_NUMBER() OVER (PARTITION BY project_id, canvas_id ORDER BY created_at, id) AS position FROM node_runs
) numbered
WHERE node_runs.id = numbered.id;
UPDATE canvases SET next_run_seq = 1 + (
  SELECT COALESCE(MAX(r.seq), 0) FROM node_runs r WHERE r.project_id = canvases.project_id AND r.canvas_id = canvases.id
);

DROP INDEX node_runs_by_node;
CREATE INDEX node_runs_by_node ON node_runs (project_id, canvas_id, node_id, seq);
