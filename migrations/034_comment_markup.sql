-- Drawn notes (docs/review.md, "Drawn notes"): a comment can carry marks drawn on the frame its thread names, kept as
-- JSON (a list of shapes in coordinates from 0 to 1 of the frame); NULL for a comment of words alone.
ALTER TABLE comments ADD COLUMN markup TEXT;
