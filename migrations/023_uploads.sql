-- Uploads (issue 32): people and agents bring their own pictures, films, sound and PDFs. An uploaded file is an asset
-- like a run's output, served by the same route with the same checks, backed up and migrated the same way; it has no
-- run, so run_id becomes optional, and it says who uploaded it and under which name. Pictures, posters and
-- thumbnails are images; a PDF is a document. Rebuilt rather than altered, as in 004, so both databases get one
-- definition (SQLite cannot change a column or a CHECK in place).
CREATE TABLE assets_next (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  run_id TEXT REFERENCES node_runs (id),
  kind TEXT NOT NULL CHECK (kind IN ('image', 'audio', 'video', 'model', 'json', 'document')),
  mime_type TEXT NOT NULL,
  byte_size BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  storage TEXT NOT NULL DEFAULT 'local',
  storage_key TEXT,
  uploaded_by TEXT,
  file_name TEXT,
  CHECK (run_id IS NOT NULL OR uploaded_by IS NOT NULL)
);
INSERT INTO assets_next (id, project_id, canvas_id, run_id, kind, mime_type, byte_size, created_at, storage, storage_key)
  SELECT id, project_id, canvas_id, run_id, kind, mime_type, byte_size, created_at, storage, storage_key FROM assets;
DROP TABLE assets;
ALTER TABLE assets_next RENAME TO assets;
CREATE INDEX assets_by_run ON assets (run_id);
