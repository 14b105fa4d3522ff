-- Canvas templates (issue 32, item 6): an owner saves a canvas as a template of its project; a new canvas can start
-- from it (or from a built-in template, which lives in code). The layout is kept as it was saved (nodes and edges, as
-- JSON text); runs and their records are not part of a template.
CREATE TABLE canvas_templates (
  project_id TEXT NOT NULL,
  id TEXT NOT NULL,
  title TEXT NOT NULL,
  source_canvas_id TEXT NOT NULL,
  layout TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, id)
);
