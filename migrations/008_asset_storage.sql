-- Asset storage beyond one machine (issue 19): each asset's row says where its bytes are and under which key. Rows
-- written before are local files named after the asset.
ALTER TABLE assets ADD COLUMN storage TEXT NOT NULL DEFAULT 'local';
ALTER TABLE assets ADD COLUMN storage_key TEXT;

-- `--asset-store postgres`: the bytes as chunks in the database. A key no asset row names is a run's staged output
-- (published when its run completes) or a leftover of a run that never did.
CREATE TABLE asset_chunks (
  storage_key TEXT NOT NULL,
  seq INTEGER NOT NULL,
  data BYTEA NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (storage_key, seq)
);

-- Secrets every server of one store shares: the key that signs asset URLs, made by the first server that needs it.
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
