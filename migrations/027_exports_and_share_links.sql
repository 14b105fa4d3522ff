-- Exports (issue 35): the files a board leaves the app as (PDF sheets, the animatic, shot lists, editors' timelines).
-- Each is a job the workers claim like a node run (a lease renewed by heartbeats, so a worker that dies gives it back
-- and many servers share the queue), costing nothing. The file is an asset (run_id null, uploaded_by the person who
-- started it), recorded in the same transaction that finishes the job while its worker still holds the lease: a
-- cancelled or lost job leaves no asset.
CREATE TABLE export_jobs (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  options TEXT NOT NULL,
  -- What the file is made from, read when the job was queued (the board, its pictures' and sounds' assets): the job
  -- renders that, whatever the canvas becomes meanwhile, so the same revision and options give the same file.
  source TEXT NOT NULL,
  revision BIGINT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'cancel_requested', 'succeeded', 'failed', 'cancelled')),
  progress_percent DOUBLE PRECISION,
  progress_message TEXT,
  created_by TEXT NOT NULL,
  created_by_name TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  finished_at BIGINT,
  attempt INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  asset_id TEXT,
  file_name TEXT,
  warnings TEXT NOT NULL DEFAULT '[]',
  error_code TEXT,
  error_message TEXT
);
CREATE INDEX export_jobs_by_canvas ON export_jobs (project_id, canvas_id, created_at);
CREATE INDEX export_jobs_by_status ON export_jobs (status, created_at);

-- Share links (issue 35, item 6): a read-only link to present one board (or every board of a canvas) to someone
-- without an account, with the downloads the owner chose. Only a hash of the link's secret is kept; a link ends at
-- its expiry or when it is revoked, at once.
CREATE TABLE share_links (
  id TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL UNIQUE,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  node_id TEXT,
  downloads TEXT NOT NULL DEFAULT '[]',
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX share_links_by_canvas ON share_links (project_id, canvas_id, created_at);
