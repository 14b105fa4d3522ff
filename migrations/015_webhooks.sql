-- Signed webhooks (issue 22): endpoints a project's owners register, and the outbox of deliveries to them. A
-- delivery row is written in the transaction that makes its event (a run's status, a layout revision), so an event
-- is never lost and never sent for something that did not happen; deliveries to one endpoint about one canvas go out
-- in the order of the canvas's event_seq, taken under the canvas row's lock.
ALTER TABLE canvases ADD COLUMN event_seq BIGINT NOT NULL DEFAULT 0;

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id),
  url TEXT NOT NULL,
  -- The event types as a JSON array; [] means every type.
  events TEXT NOT NULL,
  allow_private_network INTEGER NOT NULL DEFAULT 0 CHECK (allow_private_network IN (0, 1)),
  -- The signing secret must be usable (HMAC), so it cannot be hashed: it is sealed (AES-256-GCM) under a key in
  -- server_secrets, and after a rotation the previous one also signs until previous_secret_until.
  secret_sealed TEXT NOT NULL,
  previous_secret_sealed TEXT,
  previous_secret_until BIGINT,
  created_by_issuer TEXT NOT NULL,
  created_by_subject TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  deleted_at BIGINT
);
CREATE INDEX webhooks_by_project ON webhooks (project_id);

CREATE TABLE webhook_deliveries (
  -- The webhook-id header: a redelivery keeps it, so a receiver can drop what it already handled.
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks (id),
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  type TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_status INTEGER,
  last_error TEXT,
  last_latency_ms DOUBLE PRECISION,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  created_at BIGINT NOT NULL,
  delivered_at BIGINT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (webhook_id, canvas_id, status, seq);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at);
