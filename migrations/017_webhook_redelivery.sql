-- A delivery sent again by hand (redeliver) is retried as a new one: its 24 h of retries and its backoff count from
-- the redelivery (retry_from, and the attempts it had then), not from the event, which may be days old.
ALTER TABLE webhook_deliveries ADD COLUMN retry_from BIGINT;
ALTER TABLE webhook_deliveries ADD COLUMN retry_base_attempts INTEGER NOT NULL DEFAULT 0;
