-- Elements (issue 32, item 5): a project's cast, locations, props and styles, each with a name (unique in the project
-- whatever its case: `name_key` is the name in lower case), notes, and up to four reference pictures (asset ids of
-- uploaded images, as JSON text, in order). A run records whether its provider used the references it was given.
CREATE TABLE elements (
  project_id TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('character', 'location', 'prop', 'style')),
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  notes TEXT NOT NULL,
  reference_assets TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, id),
  UNIQUE (project_id, name_key)
);
ALTER TABLE node_runs ADD COLUMN references_used INTEGER;
