-- People come back on their own (issue 31): a session on a device the person trusts lasts longer (remembered), and
-- an invitation's link stays copyable for its owners while it is pending (its secret sealed, like webhook secrets,
-- under a key in server_secrets; only its hash finds it).
ALTER TABLE sessions ADD COLUMN remembered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE project_invites ADD COLUMN secret_sealed TEXT;
