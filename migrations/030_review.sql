-- Review (issue 33; docs/review.md): comment threads on nodes and canvases, review states that only people set, each
-- person's inbox, and guests who comment through a review link. None of it is part of the layout: a comment never
-- moves the canvas's revision (it moves states_version, so open pages hear of it on the change feed).
CREATE TABLE comment_threads (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  -- null: a thread on the canvas as a whole. Not a foreign key: a thread outlives its node ("on a deleted node").
  node_id TEXT,
  shot_id TEXT,
  -- JSON of CommentAnchor (src/contract/review.ts): a point on the picture, or a timecode; null when none.
  anchor TEXT,
  -- What the node was called when the thread began: what a thread on a deleted node still shows.
  node_label TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('open', 'resolved')),
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  resolved_by TEXT,
  resolved_at BIGINT,
  -- The canvas chat conversation an @assistant mention in this thread talks in (one per thread and person).
  assistant_conversations TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX comment_threads_by_canvas ON comment_threads (project_id, canvas_id, updated_at);

CREATE TABLE comments (
  id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL REFERENCES comment_threads (id),
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  author_kind TEXT NOT NULL CHECK (author_kind IN ('person', 'guest', 'assistant', 'agent')),
  author_issuer TEXT,
  author_subject TEXT,
  author_name TEXT NOT NULL,
  -- A guest's comments carry their guest id, so a guest edits and deletes only their own.
  guest_id TEXT,
  body TEXT NOT NULL,
  mentions TEXT NOT NULL DEFAULT '[]',
  created_at BIGINT NOT NULL,
  edited_at BIGINT,
  deleted_at BIGINT
);
CREATE INDEX comments_by_thread ON comments (thread_id, created_at);

-- A board's (shot_id '') or a shot's review state. `fingerprint` is a hash of what was approved (the shot's fields and
-- picture, or the board's shots): a later change shows as "changed since approval" rather than keeping the approval.
CREATE TABLE review_states (
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  shot_id TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL CHECK (state IN ('draft', 'in_review', 'changes_requested', 'approved')),
  fingerprint TEXT,
  approved_revision BIGINT,
  decided_by TEXT,
  decided_at BIGINT,
  -- Who last asked for approval (JSON of a person): told of the decision.
  requested_by TEXT,
  PRIMARY KEY (project_id, canvas_id, node_id, shot_id)
);

CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  recipient_issuer TEXT NOT NULL,
  recipient_subject TEXT NOT NULL,
  project_id TEXT NOT NULL,
  canvas_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('mention', 'reply', 'approval_request', 'approval_decision')),
  thread_id TEXT,
  node_id TEXT,
  shot_id TEXT,
  from_name TEXT NOT NULL,
  summary TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  read_at BIGINT
);
CREATE INDEX notifications_by_recipient ON notifications (recipient_issuer, recipient_subject, created_at);

-- Guests of a review link: a name they gave and a secret their page holds (only its hash here).
CREATE TABLE review_guests (
  id TEXT PRIMARY KEY,
  share_id TEXT NOT NULL,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL
);

ALTER TABLE share_links ADD COLUMN review TEXT NOT NULL DEFAULT 'none';
-- Whether the project's editors may set review states (owners always may; agents never).
ALTER TABLE projects ADD COLUMN editors_approve INTEGER NOT NULL DEFAULT 0;
