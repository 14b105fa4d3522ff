-- Pictures, not only names (docs/ui.md, "Names"): the small square picture each person chose to be shown by, set by
-- themselves through the upload rules and kept here as the 256-pixel WebP the server made of it (a few kilobytes), so
-- it needs no asset store and belongs to no project. `picture_id` changes with every new picture: its URL can be cached.
CREATE TABLE people_pictures (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  picture_id TEXT NOT NULL UNIQUE,
  webp BYTEA NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
