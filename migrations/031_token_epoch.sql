-- Token lookups are cached until a token changes (issue 36, item 4; src/store/token-cache.ts): every change to a
-- token row adds one to this counter in its own transaction, so a process on the same SQLite file sees that its
-- cached tokens are stale (PostgreSQL processes are also told by NOTIFY).
CREATE TABLE token_epoch (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n BIGINT NOT NULL
);
INSERT INTO token_epoch (id, n) VALUES (1, 0);
