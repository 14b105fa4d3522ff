-- Who a comment thread is for (docs/review.md, "The team's threads and the client's"): the team alone, or also the
-- client who reviews through a link. Guests of a review link see and answer only the client's threads. A thread a
-- guest started was always shown to guests: it stays the client's; every other thread is the team's.
ALTER TABLE comment_threads ADD COLUMN audience TEXT NOT NULL DEFAULT 'team' CHECK (audience IN ('team', 'client'));
UPDATE comment_threads SET audience = 'client'
  WHERE id IN (SELECT thread_id FROM comments WHERE author_kind = 'guest');
