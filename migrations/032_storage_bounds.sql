-- A project's storage is summed before each upload is kept (its quota, --project-storage-quota-bytes): an index by
-- project that holds the sizes too, so the sum reads the index alone rather than every asset of every project.
CREATE INDEX assets_by_project ON assets (project_id, byte_size);
