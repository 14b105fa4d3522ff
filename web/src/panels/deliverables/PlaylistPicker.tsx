import type { PresentShot } from '../../model/present.js';

/**
 * Today's review (docs/review.md, "The review room"): which of the board's shots Present steps through, in which
 * order. Every shot by default; ticking leaves shots out, the arrows reorder the ones kept.
 */
export function PlaylistPicker({
  shots,
  playlist,
  onChange,
  onDone,
}: {
  shots: readonly PresentShot[];
  /** null: every shot, in the board's order. */
  playlist: readonly string[] | null;
  onChange: (playlist: string[] | null) => void;
  onDone: () => void;
}) {
  const chosen = playlist ?? shots.map((shot) => shot.id);
  const byId = new Map(shots.map((shot) => [shot.id, shot]));
  // The chosen shots in their order, then the others in the board's.
  const rows = [
    ...chosen.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
    ...shots.filter((shot) => !chosen.includes(shot.id)),
  ];
  const set = (next: string[]) => {
    const everyShot = next.length === shots.length && next.every((id, index) => shots[index]?.id === id);
    onChange(everyShot ? null : next);
  };
  const swap = (at: number, by: number) => {
    const next = [...chosen];
    [next[at], next[at + by]] = [next[at + by]!, next[at]!];
    set(next);
  };
  return (
    <section className="present-playlist" role="dialog" aria-label="Today's shots">
      <header>
        <strong>Today&apos;s shots</strong>{' '}
        <span className="muted">
          ({chosen.length} of {shots.length})
        </span>
      </header>
      <ol>
        {rows.map((shot) => {
          const at = chosen.indexOf(shot.id);
          return (
            <li key={shot.id} data-in-playlist={at >= 0}>
              <label>
                <input
                  type="checkbox"
                  checked={at >= 0}
                  // The last shot stays: a review of no shots shows nothing.
                  disabled={at >= 0 && chosen.length === 1}
                  onChange={(event) =>
                    set(event.target.checked ? [...chosen, shot.id] : chosen.filter((id) => id !== shot.id))
                  }
                />
                Shot {shot.number} {shot.caption ?? shot.action ?? ''}
              </label>
              {at >= 0 ? (
                <span className="present-playlist-order">
                  <button
                    type="button"
                    disabled={at === 0}
                    onClick={() => swap(at, -1)}
                    aria-label={`Shot ${shot.number} earlier`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={at === chosen.length - 1}
                    onClick={() => swap(at, 1)}
                    aria-label={`Shot ${shot.number} later`}
                  >
                    ↓
                  </button>
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
      <footer>
        <button type="button" onClick={() => onChange(null)} disabled={playlist === null}>
          Every shot
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </footer>
    </section>
  );
}
