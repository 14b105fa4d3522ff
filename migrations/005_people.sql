-- People sign in through one-time links; a sign-in opens a session. Both secrets are stored as SHA-256 only.
CREATE TABLE login_links (
  secret_hash TEXT PRIMARY KEY,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  project_id TEXT,
  canvas_id TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL UNIQUE,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  -- Absolute end; idle expiry is last_seen_at plus the configured idle time.
  expires_at BIGINT NOT NULL,
  ended_at BIGINT
);
CREATE INDEX sessions_by_person ON sessions (issuer, subject);

-- Tokens issued by project owners through the API record who issued them.
ALTER TABLE tokens ADD COLUMN issued_by_issuer TEXT;
ALTER TABLE tokens ADD COLUMN issued_by_subject TEXT;
