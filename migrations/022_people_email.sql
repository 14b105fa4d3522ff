-- A person's e-mail address for sign-in links (issue 31): set by the person, one person per address, so "e-mail me a
-- sign-in link" reaches exactly them when the server has an SMTP relay.
CREATE TABLE people_email (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  email TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE UNIQUE INDEX people_email_by_address ON people_email (email);
