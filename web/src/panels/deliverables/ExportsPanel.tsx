import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  EXPORT_KINDS,
  FRAME_RATES,
  GUIDE_NAMES,
  PAPER_SIZES,
  SHEET_FIELDS,
  type ExportKind,
  type ExportView,
} from '../../../../src/contract/index.js';
import { useCanvas, useCanvasState, useEditable } from '../../ui/canvas-context.js';
import { api } from '../../model/api.js';
import { boardTitle } from '../../model/present.js';
import { GUIDE_LABELS } from '../../../../src/shared/frame-shape.js';
import { BoardSound } from './BoardSound.js';
import { ConformTimeline } from './Conform.js';
import { ShareLinks } from './ShareLinks.js';
import { CompareDialog } from '../../ui/compare-dialog.js';
import { optionsOf, Select } from '../../ui/select.js';

/**
 * Exports (docs/deliverables.md): pick a board and what to make of it, with the format's options; the job
 * runs on the server (its progress comes through the live feed), and the file is listed here for every member to
 * download, with who made it from which revision. Editors also conform the board to an editor's timeline here
 * (Conform.tsx); owners make and revoke share links.
 */

type Options = Record<string, unknown>;

const PDF_KINDS = new Set<ExportKind>(['pdf_board', 'shot_list_pdf']);
const TIMELINE_KINDS = new Set<ExportKind>(['otio', 'otioz', 'fcp_xml', 'fcpxml', 'edl']);

const STATUS_WORDS = {
  queued: 'Waiting for a worker',
  running: 'Making it',
  succeeded: 'Ready',
  failed: 'Failed',
  cancelled: 'Cancelled',
} as const;

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function defaultsOf(kind: ExportKind): Options {
  if (kind === 'pdf_board')
    return {
      paper: 'a4',
      orientation: 'landscape',
      columns: 3,
      rows: 2,
      fields: ['action', 'dialogue', 'camera', 'duration'],
      notes_pages: false,
    };
  if (kind === 'shot_list_pdf') return { paper: 'a4', orientation: 'landscape' };
  if (kind === 'animatic')
    return {
      resolution: '1080p',
      frame_rate: '24',
      burn_in: false,
      push_in: false,
      transition: 'cut',
      music_node_id: null,
    };
  if (TIMELINE_KINDS.has(kind)) return { frame_rate: '24', markers: true };
  return {};
}

/** The choices of columns and rows a board sheet takes. */
const COUNTS = [1, 2, 3, 4].map((count) => ({ value: String(count), label: String(count) }));

export function ExportsPanel({ selected }: { selected: string | null }) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const address = useCanvasState((state) => state.address);
  const role = useCanvasState((state) => state.role);
  const nodes = useCanvasState((state) => state.layout.nodes);
  const live = useCanvasState((state) => state.exports);
  const boards = useMemo(() => nodes.filter((node) => node.type === 'storyboardNode'), [nodes]);
  const [boardId, setBoardId] = useState<string>('');
  const [kind, setKind] = useState<ExportKind>('pdf_board');
  const [options, setOptions] = useState<Options>(defaultsOf('pdf_board'));
  const [jobs, setJobs] = useState<ExportView[]>([]);
  const [error, setError] = useState<string | null>(null);
  // Two finished animatics to compare (the newest two ticked), as the cut changes between reviews.
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState(false);

  const board = boards.find((node) => node.id === boardId) ?? boards.find((node) => node.id === selected) ?? boards[0];
  const load = useCallback(async () => {
    try {
      setJobs((await api.exports(address)).exports);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [address]);
  // The feed says a job moved on: its progress is shown from the feed, its file and errors from a fresh read.
  const finishedLive = Object.values(live)
    .filter((state) => state.status !== 'running')
    .map((state) => `${state.export_id}:${state.status}`)
    .join(',');
  useEffect(() => void load(), [load, finishedLive]);

  const set = (key: string, value: unknown) => setOptions((current) => ({ ...current, [key]: value }));
  const start = async () => {
    if (!board) return;
    setError(null);
    try {
      const job = await api.createExport(address, { kind, node_id: board.id, options });
      setJobs((current) => [job, ...current.filter((each) => each.export_id !== job.export_id)]);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const cancel = async (exportId: string) => {
    try {
      await api.cancelExport(address, exportId);
      await load();
    } catch (failure) {
      controller.notify('error', `The export was not cancelled: ${(failure as Error).message}`);
    }
  };

  if (boards.length === 0)
    return (
      <div className="exports">
        <p className="muted">
          Exports are made from a storyboard. Add a Storyboard card (or import a script) and its shots can leave as a
          PDF, an animatic, a shot list or an editor&apos;s timeline.
        </p>
      </div>
    );

  const fields = (options.fields as string[] | undefined) ?? [];
  const guides = (options.guides as string[] | undefined) ?? [];
  const pickedCuts = picked.flatMap((exportId) => {
    const job = jobs.find((each) => each.export_id === exportId);
    return job?.file ? [{ url: job.file.url, label: `Animatic of ${new Date(job.created_at).toLocaleString()}` }] : [];
  });
  return (
    <div className="exports">
      {editable ? (
        <form
          aria-label="New export"
          onSubmit={(event) => {
            event.preventDefault();
            void start();
          }}
        >
          <label>
            Board
            <Select
              label="Board"
              value={board?.id ?? ''}
              onChange={setBoardId}
              options={boards.map((node) => ({ value: node.id, label: boardTitle(node) }))}
            />
          </label>
          <label>
            Export as
            <Select
              label="Export as"
              value={kind}
              onChange={(chosen) => {
                const next = chosen as ExportKind;
                setKind(next);
                setOptions(defaultsOf(next));
              }}
              options={optionsOf(EXPORT_KINDS)}
            />
          </label>
          {PDF_KINDS.has(kind) ? (
            <div className="row">
              <label>
                Paper
                <Select
                  label="Paper"
                  value={String(options.paper)}
                  onChange={(next) => set('paper', next)}
                  options={Object.entries(PAPER_SIZES).map(([value, paper]) => ({ value, label: paper.label }))}
                />
              </label>
              <label>
                Orientation
                <Select
                  label="Orientation"
                  value={String(options.orientation)}
                  onChange={(next) => set('orientation', next)}
                  options={[
                    { value: 'landscape', label: 'Landscape' },
                    { value: 'portrait', label: 'Portrait' },
                  ]}
                />
              </label>
              {kind === 'pdf_board' ? (
                <>
                  <label>
                    Columns
                    <Select
                      label="Columns"
                      value={String(options.columns)}
                      onChange={(next) => set('columns', Number(next))}
                      options={COUNTS}
                    />
                  </label>
                  <label>
                    Rows
                    <Select
                      label="Rows"
                      value={String(options.rows)}
                      onChange={(next) => set('rows', Number(next))}
                      options={COUNTS}
                    />
                  </label>
                </>
              ) : null}
            </div>
          ) : null}
          {kind === 'pdf_board' ? (
            <fieldset className="row checks">
              <legend>Under each picture</legend>
              {Object.entries(SHEET_FIELDS).map(([field, label]) => (
                <label key={field}>
                  <input
                    type="checkbox"
                    checked={fields.includes(field)}
                    onChange={(event) =>
                      set('fields', event.target.checked ? [...fields, field] : fields.filter((each) => each !== field))
                    }
                  />
                  {label}
                </label>
              ))}
            </fieldset>
          ) : null}
          {kind === 'pdf_board' ? (
            // The guides at the fractions of the frame the editor, Present and the board picture use.
            <fieldset className="row checks">
              <legend>Framing guides on each picture</legend>
              {GUIDE_NAMES.map((name) => (
                <label key={name}>
                  <input
                    type="checkbox"
                    checked={guides.includes(name)}
                    onChange={(event) =>
                      set(
                        'guides',
                        GUIDE_NAMES.filter((each) => (each === name ? event.target.checked : guides.includes(each))),
                      )
                    }
                  />
                  {GUIDE_LABELS[name]}
                </label>
              ))}
            </fieldset>
          ) : null}
          {kind === 'pdf_board' ? (
            <div className="row checks">
              <label>
                <input
                  type="checkbox"
                  checked={options.notes_pages === true}
                  onChange={(event) => set('notes_pages', event.target.checked)}
                />
                A page of open review notes per shot
              </label>
            </div>
          ) : null}
          {TIMELINE_KINDS.has(kind) ? (
            <div className="row checks">
              <label>
                <input
                  type="checkbox"
                  checked={options.markers === true}
                  onChange={(event) => set('markers', event.target.checked)}
                />
                Open review notes as markers
              </label>
            </div>
          ) : null}
          {kind === 'animatic' ? (
            <>
              <div className="row">
                <label>
                  Size
                  <Select
                    label="Size"
                    value={String(options.resolution)}
                    onChange={(next) => set('resolution', next)}
                    options={[
                      { value: '1080p', label: '1080p' },
                      { value: '720p', label: '720p' },
                    ]}
                  />
                </label>
                <label>
                  Transitions
                  <Select
                    label="Transitions"
                    value={String(options.transition)}
                    onChange={(next) => set('transition', next)}
                    options={[
                      { value: 'cut', label: 'Cuts' },
                      { value: 'crossfade', label: 'Crossfades' },
                    ]}
                  />
                </label>
              </div>
              {board ? <BoardSound boardId={board.id} /> : null}
              <div className="row checks">
                <label>
                  <input
                    type="checkbox"
                    checked={options.burn_in === true}
                    onChange={(event) => set('burn_in', event.target.checked)}
                  />
                  Shot numbers and timecode on the picture
                </label>
                <label>
                  <input
                    type="checkbox"
                    checked={options.push_in === true}
                    onChange={(event) => set('push_in', event.target.checked)}
                  />
                  Slow push-in on stills
                </label>
              </div>
            </>
          ) : null}
          {kind === 'animatic' || TIMELINE_KINDS.has(kind) ? (
            <label>
              Frame rate
              <Select
                label="Frame rate"
                value={String(options.frame_rate)}
                onChange={(next) => set('frame_rate', next)}
                options={FRAME_RATES.map((rate) => ({ value: rate, label: `${rate} fps` }))}
              />
            </label>
          ) : null}
          <button type="submit" className="button-primary">
            Export
          </button>
        </form>
      ) : null}
      {error ? <p className="error-line">{error}</p> : null}
      {editable && board ? <ConformTimeline boardId={board.id} boardName={boardTitle(board)} /> : null}
      <h3>Exports</h3>
      {jobs.length === 0 ? <p className="muted">Nothing exported from this canvas yet.</p> : null}
      <ol className="export-list">
        {jobs.map((job) => {
          const state = live[job.export_id];
          const status =
            job.status === 'succeeded' || job.status === 'failed' || job.status === 'cancelled'
              ? job.status
              : (state?.status ?? job.status);
          const progress = state?.progress ?? job.progress;
          const name = boards.find((node) => node.id === job.node_id);
          return (
            <li key={job.export_id} className="export-item" data-export={job.export_id} data-status={status}>
              <strong>
                {EXPORT_KINDS[job.kind]} · {name ? boardTitle(name) : job.node_id}
              </strong>
              <span className="muted">
                by {job.created_by} · revision {job.revision} · {new Date(job.created_at).toLocaleString()}
              </span>
              {status === 'running' || status === 'queued' ? (
                <>
                  <progress max={100} value={progress.percent ?? undefined} aria-label="Progress" />
                  <span>
                    {STATUS_WORDS[status]}
                    {progress.message ? `: ${progress.message}` : ''}
                  </span>
                  {editable ? (
                    <button type="button" className="button-small" onClick={() => void cancel(job.export_id)}>
                      Cancel
                    </button>
                  ) : null}
                </>
              ) : null}
              {status === 'succeeded' && job.file ? (
                <a href={job.file.url} download={job.file.name}>
                  Download {job.file.name} ({size(job.file.bytes)})
                </a>
              ) : null}
              {status === 'succeeded' && job.file && job.kind === 'animatic' ? (
                <label className="check-row">
                  <input
                    type="checkbox"
                    checked={picked.includes(job.export_id)}
                    onChange={(event) =>
                      setPicked((now) =>
                        event.target.checked
                          ? [...now.filter((each) => each !== job.export_id), job.export_id].slice(-2)
                          : now.filter((each) => each !== job.export_id),
                      )
                    }
                  />
                  Compare this cut
                </label>
              ) : null}
              {status === 'failed' ? <span className="error-line">Failed: {job.error?.message}</span> : null}
              {status === 'cancelled' ? <span className="muted">Cancelled: nothing was kept.</span> : null}
              {job.warnings.map((warning) => (
                <span key={warning} className="muted">
                  {warning}
                </span>
              ))}
            </li>
          );
        })}
      </ol>
      {pickedCuts.length === 2 ? (
        <button type="button" className="button-small" onClick={() => setComparing(true)}>
          Compare the two animatics
        </button>
      ) : null}
      {comparing && pickedCuts.length === 2 ? (
        <CompareDialog
          a={{ url: pickedCuts[0]!.url, label: pickedCuts[0]!.label, kind: 'video' }}
          b={{ url: pickedCuts[1]!.url, label: pickedCuts[1]!.label, kind: 'video' }}
          onClose={() => setComparing(false)}
        />
      ) : null}
      {role === 'owner' ? <ShareLinks jobs={jobs} /> : null}
    </div>
  );
}
