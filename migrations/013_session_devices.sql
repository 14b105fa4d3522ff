-- A person's own sessions, listed for them (issue 21): which browser each one is (its User-Agent, shortened).
ALTER TABLE sessions ADD COLUMN device TEXT;
