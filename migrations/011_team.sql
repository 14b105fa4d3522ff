-- A team's workspace (issue 21): invitations to a project, and what changed in its team, for its owners to read.
CREATE TABLE project_invites (
  id TEXT PRIMARY KEY,
  -- The invitation link's secret is kept only as its SHA-256.
  secret_hash TEXT NOT NULL UNIQUE,
  project_id TEXT NOT NULL REFERENCES projects (id),
  role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
  invited_by_issuer TEXT NOT NULL,
  invited_by_subject TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  accepted_at BIGINT,
  accepted_by_issuer TEXT,
  accepted_by_subject TEXT,
  revoked_at BIGINT
);
CREATE INDEX project_invites_by_project ON project_invites (project_id, created_at);

CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id),
  at BIGINT NOT NULL,
  actor_issuer TEXT NOT NULL,
  actor_subject TEXT NOT NULL,
  action TEXT NOT NULL,
  -- What the action was about (a person "issuer|subject", a canvas id, an invitation id), and its details as JSON.
  target TEXT NOT NULL,
  details TEXT NOT NULL
);
CREATE INDEX audit_log_by_project ON audit_log (project_id, at);
