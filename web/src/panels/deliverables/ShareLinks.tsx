import { useCallback, useEffect, useState } from 'react';
import type { ExportView, ShareLinkView, ShareReview } from '../../../../src/contract/index.js';
import { useCanvasState } from '../../ui/canvas-context.js';
import { api } from '../../model/api.js';
import { boardTitle } from '../../model/present.js';
import { optionsOf, Select } from '../../ui/select.js';

/** A link's review: what its guests see of the comments, and whether they comment. */
const REVIEW_CHOICES: Record<ShareReview, string> = {
  none: 'Present only',
  read: 'Guests can read comments',
  comment: 'Guests can comment',
};

/** Owners' share links: read-only, for one board or all, with an expiry and chosen downloads; revoked at once. */
export function ShareLinks({ jobs }: { jobs: readonly ExportView[] }) {
  const address = useCanvasState((state) => state.address);
  const nodes = useCanvasState((state) => state.layout.nodes);
  const boards = nodes.filter((node) => node.type === 'storyboardNode');
  const [links, setLinks] = useState<ShareLinkView[]>([]);
  const [made, setMade] = useState<string | null>(null);
  const [boardId, setBoardId] = useState<string>('');
  const [days, setDays] = useState(14);
  const [downloads, setDownloads] = useState<string[]>([]);
  const [review, setReview] = useState<ShareReview>('none');
  const [error, setError] = useState<string | null>(null);
  const ready = jobs.filter((job) => job.status === 'succeeded' && job.file);

  const load = useCallback(async () => {
    try {
      setLinks((await api.shareLinks(address)).links);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [address]);
  useEffect(() => void load(), [load]);

  const make = async () => {
    setError(null);
    try {
      const link = await api.createShareLink(address, {
        node_id: boardId || null,
        expires_in_days: days,
        downloads,
        review,
      });
      setMade(link.url);
      await load();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const revoke = async (shareId: string) => {
    try {
      await api.revokeShareLink(address, shareId);
      await load();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <section aria-label="Share links">
      <h3>Share links</h3>
      <p className="muted">
        A read-only link for someone without an account: the board in Present mode and the downloads you pick, and if
        you choose, its comments (guests may comment under a name). Nothing else of the project shows.
      </p>
      <form
        aria-label="New share link"
        onSubmit={(event) => {
          event.preventDefault();
          void make();
        }}
      >
        <div className="row">
          <label>
            Show
            <Select
              label="Show"
              value={boardId}
              onChange={setBoardId}
              options={[
                { value: '', label: 'Every board of this canvas' },
                ...boards.map((node) => ({ value: node.id, label: boardTitle(node) })),
              ]}
            />
          </label>
          <label>
            Works for (days)
            <input
              type="number"
              min={1}
              max={90}
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
            />
          </label>
          <label>
            Review
            <Select
              label="Review"
              value={review}
              onChange={(next) => setReview(next as ShareReview)}
              options={optionsOf(REVIEW_CHOICES)}
            />
          </label>
        </div>
        {ready.length > 0 ? (
          <fieldset className="checks">
            <legend>Downloads it offers</legend>
            {ready.map((job) => (
              <label key={job.export_id}>
                <input
                  type="checkbox"
                  checked={downloads.includes(job.export_id)}
                  onChange={(event) =>
                    setDownloads((current) =>
                      event.target.checked ? [...current, job.export_id] : current.filter((id) => id !== job.export_id),
                    )
                  }
                />
                {job.file?.name}
              </label>
            ))}
          </fieldset>
        ) : null}
        <button type="submit">Make a share link</button>
      </form>
      {made ? (
        <p>
          <label>
            The link (shown once: copy it now)
            <input className="share-url" readOnly value={made} onFocus={(event) => event.currentTarget.select()} />
          </label>
        </p>
      ) : null}
      {error ? <p className="error-line">{error}</p> : null}
      <ol className="share-list">
        {links.map((link) => {
          const ended = link.revoked_at !== null || Date.parse(link.expires_at) <= Date.now();
          const name = boards.find((node) => node.id === link.node_id);
          return (
            <li key={link.share_id} className="share-item" data-share={link.share_id}>
              <strong>{link.node_id ? (name ? boardTitle(name) : link.node_id) : 'Every board'}</strong>
              <span className="muted">
                by {link.created_by} ·{' '}
                {link.revoked_at
                  ? 'revoked'
                  : ended
                    ? 'expired'
                    : `until ${new Date(link.expires_at).toLocaleDateString()}`}{' '}
                · {link.downloads.length} downloads · {REVIEW_CHOICES[link.review]}
              </span>
              {ended ? null : (
                <button type="button" className="button-small" onClick={() => void revoke(link.share_id)}>
                  Revoke
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
