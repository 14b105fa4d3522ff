-- What a server tells the commands run beside it (issue 21): the URL it announced when it started last (its
-- --public-url, or the address it listens on), so `admin login-link` prints links people can open.
CREATE TABLE service_notes (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
