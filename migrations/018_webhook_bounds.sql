-- Bounds on webhooks (issue 29, item 14): deliveries past an endpoint's cap of pending ones are dropped and counted
-- on the endpoint (its owners see how many), and the cap is checked through an index of pending deliveries.
ALTER TABLE webhooks ADD COLUMN dropped_deliveries INTEGER NOT NULL DEFAULT 0;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, status);
