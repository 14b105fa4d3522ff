/**
 * The shots a review room steps through (docs/review.md, "The review room"): the playlist's shots that the board still
 * has, in the playlist's order; every shot of the board, in its order, without a playlist. The server checks a move's
 * shot_index against it and Present steps along it, so both count the same way.
 */
export function roomOrder(boardShots: readonly string[], playlist: readonly string[] | null): string[] {
  if (!playlist) return [...boardShots];
  const present = new Set(boardShots);
  return playlist.filter((shotId) => present.has(shotId));
}
