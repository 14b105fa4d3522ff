-- A token that may reach only some canvases of its projects (issue 29, item 10): the canvas chat's turn token reaches
-- the conversation's canvas and those its person asked about. A JSON list of {project_id, canvas_id}; NULL: no canvas
-- limit beyond the token's projects and workspaces.
ALTER TABLE tokens ADD COLUMN canvas_scope TEXT;
