-- Tool sets (issue 34, item 2): the named groups of tools beyond the published six an owner enabled for a token (a
-- JSON array of names; NULL: none, the six only).
ALTER TABLE tokens ADD COLUMN tool_sets TEXT;
-- An OAuth connection's tool sets, set by an owner of its project after it was made (NULL: none).
ALTER TABLE oauth_grants ADD COLUMN tool_sets TEXT;
