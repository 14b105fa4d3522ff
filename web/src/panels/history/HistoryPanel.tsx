import { useCallback, useEffect, useState } from 'react';
import type { CheckpointView, HistoryEntry, MemberView } from '../../../../src/contract/index.js';
import { useCanvas, useCanvasState, useEditable } from '../../ui/canvas-context.js';
import { api } from '../../model/api.js';
import { fieldWords, groupHistory, shotWords } from '../../model/history-groups.js';
import { authorLabel } from '../../model/layout.js';
import { useReview } from '../../model/review.js';

const NO_MEMBERS: MemberView[] = [];

const CHANGE_WORDS = { create: 'added', update: 'changed', delete: 'deleted' } as const;

function describe(entry: HistoryEntry, names: Map<string, string>): string {
  const shots = shotWords(entry.shots ?? []);
  if (shots) return `${names.get(entry.shots![0]!.node_id) ?? 'Board'}: ${shots}`;
  if (entry.changes.length === 0) return entry.operation ?? 'no change';
  const parts = entry.changes
    .slice(0, 3)
    .map((change) => `${CHANGE_WORDS[change.change]} ${change.kind} ${names.get(change.id) ?? change.id}`);
  return `${parts.join(', ')}${entry.changes.length > 3 ? ` and ${entry.changes.length - 3} more` : ''}`;
}

function ago(at: string | null): string {
  if (!at) return '';
  const seconds = Math.round((Date.now() - Date.parse(at)) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(at).toLocaleString();
}

/** The canvas's revisions, newest first, with who made each and what changed; any one can be reverted to. */
export function HistoryPanel() {
  const { controller } = useCanvas();
  const editable = useEditable();
  const address = useCanvasState((state) => state.address);
  const revision = useCanvasState((state) => state.layout.revision);
  const nodes = useCanvasState((state) => state.layout.nodes);
  const members = useReview((data) => data.members, NO_MEMBERS);
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const page = await api.history(address);
      setEntries(page.revisions);
      setNext(page.next_before);
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [address]);
  useEffect(() => void load(), [load, revision]);

  const names = new Map(nodes.map((node) => [node.id, node.data.displayName ?? node.id]));
  const people = new Map(
    members.flatMap((member) =>
      member.display_name ? [[`${member.issuer}|${member.subject}`, member.display_name]] : [],
    ),
  );
  return (
    <div className="history">
      {error ? <p className="error-line">Could not read the history: {error}</p> : null}
      <Checkpoints revision={revision} />
      <ol className="history-list">
        {groupHistory(entries).map((group) => {
          const [newest] = group.entries as [HistoryEntry];
          const oldest = group.entries.at(-1)!;
          const revert = (entry: HistoryEntry) =>
            editable && entry.revision < revision ? (
              <button type="button" className="button-small" onClick={() => void controller.revertTo(entry.revision)}>
                Revert to r{entry.revision}
              </button>
            ) : null;
          if (group.entries.length === 1)
            return (
              <li key={newest.revision} className="history-entry" data-revision={newest.revision}>
                <div className="history-head">
                  <span className="history-revision">r{newest.revision}</span>
                  <span className={`history-author author-${newest.author?.kind ?? 'unknown'}`}>
                    {authorLabel(newest.author, people)}
                  </span>
                  <span className="muted">{ago(newest.at)}</span>
                </div>
                <div className="history-what">{describe(newest, names)}</div>
                {revert(newest)}
              </li>
            );
          return (
            <li
              key={newest.revision}
              className="history-entry history-group"
              data-revision={newest.revision}
              data-revisions={group.entries.length}
            >
              <div className="history-head">
                <span className="history-revision">
                  r{oldest.revision}–r{newest.revision}
                </span>
                <span className={`history-author author-${newest.author?.kind ?? 'unknown'}`}>
                  {authorLabel(newest.author, people)}
                </span>
                <span className="muted">{ago(newest.at)}</span>
              </div>
              <div className="history-what">
                {names.get(group.shot!.node_id) ?? 'Board'}: {shotWords([group.shot!], group.fields)}
              </div>
              <details>
                <summary>{group.entries.length} revisions</summary>
                <ol className="history-sub">
                  {group.entries.map((entry) => (
                    <li key={entry.revision} data-revision={entry.revision}>
                      <span className="history-revision">r{entry.revision}</span>{' '}
                      {(entry.shots?.[0]?.fields ?? []).map(fieldWords).join(', ')}{' '}
                      <span className="muted">{ago(entry.at)}</span> {revert(entry)}
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          );
        })}
      </ol>
      {next !== null ? (
        <button
          type="button"
          className="button-small"
          onClick={() =>
            void api.history(address, next).then((page) => {
              setEntries((current) => [...current, ...page.revisions]);
              setNext(page.next_before);
            })
          }
        >
          Older revisions
        </button>
      ) : null}
    </div>
  );
}

/**
 * Checkpoints (docs/ui.md, "History"): named revisions, the newest first, each restored by a revert to it (a new
 * revision: nothing is lost); editors name the current revision. The assistant's big turns leave one on their own.
 */
function Checkpoints({ revision }: { revision: number }) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const address = useCanvasState((state) => state.address);
  const [checkpoints, setCheckpoints] = useState<CheckpointView[]>([]);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setCheckpoints((await api.checkpoints(address)).checkpoints);
    } catch (failure) {
      setProblem((failure as Error).message);
    }
  }, [address]);
  useEffect(() => void load(), [load, revision]);
  const save = async () => {
    try {
      await api.createCheckpoint(address, name.trim());
      setName('');
      setProblem(null);
      await load();
    } catch (failure) {
      setProblem((failure as Error).message);
    }
  };
  return (
    <section className="checkpoints" aria-label="Checkpoints">
      <h3>Checkpoints</h3>
      {problem ? <p className="error-line">{problem}</p> : null}
      {editable ? (
        <form
          className="checkpoint-new"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <input
            aria-label="Checkpoint name"
            placeholder={`Name revision ${revision}…`}
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className="button-small" disabled={name.trim() === ''}>
            Save checkpoint
          </button>
        </form>
      ) : null}
      {checkpoints.length === 0 ? <p className="muted">No checkpoints yet.</p> : null}
      <ul className="checkpoint-list">
        {checkpoints.map((checkpoint) => (
          <li key={checkpoint.checkpoint_id} data-checkpoint={checkpoint.name}>
            <span className="history-revision">r{checkpoint.revision}</span> {checkpoint.name}{' '}
            <span className="muted">
              {checkpoint.created_by} · {ago(checkpoint.created_at)}
            </span>
            {editable && checkpoint.revision < revision ? (
              <button
                type="button"
                className="button-small"
                onClick={() => void controller.revertTo(checkpoint.revision)}
              >
                Restore
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
