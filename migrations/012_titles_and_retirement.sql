-- Projects and canvases people manage from the browser (issue 21): a title to show instead of the id (ids stay
-- stable: URLs, tool arguments and agents' memory keep working after a rename), and deletion as retirement: a deleted
-- canvas or project is gone for every reader and writer at once, its active runs are cancelled, and its rows stay
-- until an administrator purges them (history and assets are never half removed).
ALTER TABLE canvases ADD COLUMN title TEXT;
ALTER TABLE canvases ADD COLUMN deleted_at BIGINT;
ALTER TABLE projects ADD COLUMN title TEXT;
ALTER TABLE projects ADD COLUMN deleted_at BIGINT;
