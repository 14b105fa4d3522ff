-- Names, not ids (docs/ui.md, "Names"): the name each person chose to be shown by, set by themselves. Screens show it
-- where they used to show the sign-in subject (an opaque id from an identity provider, or "demo-owner").
CREATE TABLE people_names (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  display_name TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
