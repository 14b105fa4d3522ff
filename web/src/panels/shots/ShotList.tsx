import { ImportReport, type ImportReportText } from '../../ui/import-report.js';
import { useReactFlow } from '@xyflow/react';
import { useMemo, useRef, useState } from 'react';
import { BOARD_ASPECTS, dataOf, SHOT_STATUSES, shotElements, type ShotWords } from '../../../../src/contract/index.js';
import { useCanvas, useCanvasState, useEditable } from '../../ui/canvas-context.js';
import { api, ApiError, newKey } from '../../model/api.js';
import { ShotRow } from './ShotRow.js';
import { keepColumns, readColumns, SHOT_COLUMNS, type ColumnPlace, type ShotColumn } from './shot-columns.js';
import { CheckMenu } from '../../ui/check-menu.js';
import { PicturePicker } from './PicturePicker.js';
import { picturesOntoShots } from '../../model/shot-pictures.js';
import { RequestApproval, ReviewStateControl } from '../review/ReviewControls.js';
import { drawnBoxes, freeSpotNear, measuredSizes, NEW_CARD } from '../../model/placement.js';
import { useProjectElements } from '../../model/elements.js';
import { newNodeId } from '../../model/palette.js';
import { importSummary, scriptOfBoard, shotFlags } from '../../model/script-import.js';
import {
  addShot,
  boardsOf,
  continueFromPrevious,
  customFrameShape,
  editShot,
  moveShot,
  removeShot,
  renumber,
  setShotPicture,
  setBoardAspect,
  setNumbersLocked,
  shotGeneration,
  shotPicture,
  shotPrompt,
  type Board,
  type Shot,
} from '../../model/shots.js';
import { Select } from '../../ui/select.js';

/**
 * The shot list (docs/storyboards.md, "The shot list"): the board's shots as a table beside the canvas, every field
 * editable in place (a change is saved when the field is left, as one revision), reordered by dragging a row or with
 * its Move buttons (numbers follow in the same revision), sorted and filtered for reading, and downloaded as CSV or
 * XLSX.
 */

type SortKey = 'order' | 'scene' | 'status' | 'duration';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function ShotList({
  selected,
  onClose,
  onComment,
  board: fixed,
  place = 'panel',
}: {
  selected: string | null;
  /** Closes the list (the canvas's panel); the board page's List view has no Close. */
  onClose?: () => void;
  /** Opens the Comments tab on a board's shot. */
  onComment?: (nodeId: string, shotId: string | null) => void;
  /** The one board it lists (the board page): no choice of board. */
  board?: string;
  /** Where it is drawn: each place keeps its own choice of columns in this browser. */
  place?: ColumnPlace;
}) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const layout = useCanvasState((state) => state.layout);
  const address = useCanvasState((state) => state.address);
  const boards = useMemo(() => boardsOf(layout), [layout]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [columns, setColumns] = useState<ShotColumn[]>(() => readColumns(place));
  const board =
    (fixed !== undefined ? (boards.find((each) => each.node.id === fixed) ?? null) : null) ??
    boards.find((each) => each.node.id === chosen) ??
    boards.find((each) => each.node.id === selected) ??
    boards[0] ??
    null;
  const [sort, setSort] = useState<SortKey>('order');
  const [filters, setFilters] = useState({ scene: '', cast: '', status: '' });
  const authors = () => controller.store.getState().lastAuthor;
  const flow = useReactFlow();
  const picker = useRef<HTMLInputElement>(null);
  const [report, setReport] = useState<ImportReportText | null>(null);
  const { elements } = useProjectElements(address.projectId);
  const states = useCanvasState((state) => state.states);
  // The shot "Pick from the canvas" is open for, and the shots whose files are on their way.
  const [picking, setPicking] = useState<{ shotId: string; number: string } | null>(null);
  const [sending, setSending] = useState<ReadonlySet<string>>(new Set());
  const currentStates = () => controller.store.getState().states;

  /**
   * Generates a shot's picture: the first time, a generation card beside the board with the shot's prompt (its words
   * and a mention of each of its elements) becomes the shot's source, in one revision; then that card runs.
   */
  const generate = async (shot: Shot) => {
    if (!board) return;
    const now = controller.store.getState().layout;
    let nodeId = typeof shot.sourceNodeId === 'string' ? shot.sourceNodeId : null;
    if (!nodeId || !now.nodes.some((node) => node.id === nodeId)) {
      const boxes = drawnBoxes(now.nodes, measuredSizes(flow.getNodes()));
      const [boardBox] = drawnBoxes([board.node], measuredSizes(flow.getNodes()));
      const near = boardBox
        ? { x: boardBox.x + boardBox.width + 60, y: boardBox.y }
        : { x: board.node.position.x, y: board.node.position.y };
      const card = {
        id: newNodeId('imageGenNode'),
        position: freeSpotNear(boxes, near, NEW_CARD),
        prompt: shotPrompt(shot, elements),
        aspectRatio: text(dataOf(board.node, 'storyboardNode')?.aspectRatio) || '16:9',
      };
      if (!(await controller.submit(shotGeneration(board.node.id, shot.id, card, authors)))) return;
      nodeId = card.id;
    }
    await controller.runNode(nodeId, newKey());
  };

  /** Reads the file and imports it: into the board's script node when it has one (a revision), else as a new board. */
  const importFile = async (file: File) => {
    const { layout: now } = controller.store.getState();
    const script = board ? scriptOfBoard(now, board.node.id) : null;
    const pane = document.querySelector('.react-flow')?.getBoundingClientRect();
    const centre = pane
      ? flow.screenToFlowPosition({ x: pane.left + pane.width / 2, y: pane.top + pane.height / 3 })
      : { x: 0, y: 0 };
    const boxes = drawnBoxes(now.nodes, measuredSizes(flow.getNodes()));
    setReport({ headline: `Importing ${file.name}…`, details: [] });
    try {
      const receipt = await api.importScript(address, {
        base_revision: now.revision,
        file_name: file.name,
        text: await file.text(),
        ...(script ? { script_node_id: script.node.id } : board ? { board_node_id: board.node.id } : {}),
        position: freeSpotNear(boxes, centre, { width: 840, height: 420 }),
      });
      setChosen(receipt.board_node_id);
      setReport(importSummary(receipt));
    } catch (error) {
      const message = error instanceof ApiError ? error.message : String(error);
      setReport({ headline: `The script was not imported: ${message}`, details: [], error: true });
    }
  };
  const importControls = (
    <>
      <button type="button" className="button-small" disabled={!editable} onClick={() => picker.current?.click()}>
        Import script…
      </button>
      <input
        ref={picker}
        type="file"
        hidden
        accept=".fountain,.fdx,.txt,text/plain"
        aria-label="Import a script: Fountain, Final Draft or plain text"
        data-testid="script-picker"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void importFile(file);
        }}
      />
    </>
  );
  const reportBox = report ? <ImportReport report={report} onDismiss={() => setReport(null)} /> : null;

  if (!board)
    return (
      <section className={place === 'page' ? 'shot-list shot-list-page' : 'shot-list'} aria-label="Shot list">
        <ShotListHeader onClose={onClose}>{importControls}</ShotListHeader>
        {reportBox}
        <p className="muted">
          No storyboard on this canvas yet: import a script (Fountain, Final Draft or plain text) to get a board with a
          shot per scene, or add a storyboard from the Add panel (Story → Storyboard); its frames are the shots.
        </p>
      </section>
    );
  const flags = shotFlags(layout, board.node.id);

  const submit = (intent: Parameters<typeof controller.submit>[0]) => void controller.submit(intent);
  const boardId = board.node.id;
  const aspectRatio = dataOf(board.node, 'storyboardNode')?.aspectRatio;
  const shown = visibleShots(board, sort, filters);
  const reorderable = editable && sort === 'order' && !filters.scene && !filters.cast && !filters.status;
  const download = (format: 'csv' | 'xlsx') =>
    `/api/v2/projects/${encodeURIComponent(address.projectId)}/canvases/${encodeURIComponent(address.canvasId)}/nodes/${encodeURIComponent(boardId)}/shot-list?format=${format}`;
  const scenes = distinct(board.shots.map((shot) => text(shot.scene)));
  const shownColumns = new Set(columns);
  const cast = distinct(board.shots.flatMap((shot) => (Array.isArray(shot.cast) ? shot.cast.map(text) : [])));

  return (
    <section className={place === 'page' ? 'shot-list shot-list-page' : 'shot-list'} aria-label="Shot list">
      <ShotListHeader onClose={onClose}>
        {fixed === undefined ? (
          <label>
            Board{' '}
            <Select
              label="Board"
              value={boardId}
              onChange={setChosen}
              options={boards.map((each) => ({ value: each.node.id, label: boardTitle(each) }))}
            />
          </label>
        ) : null}
        <span className="board-review">
          <ReviewStateControl nodeId={boardId} shotId={null} name={`the board ${boardTitle(board)}`} />
          <RequestApproval
            nodeId={boardId}
            shots={board.shots.map((shot, index) => ({ id: shot.id, number: shot.number ?? String(index + 1) }))}
          />
        </span>
        <FrameShapePicker
          key={boardId}
          aspectRatio={aspectRatio}
          editable={editable}
          save={(ratio) => submit(setBoardAspect(boardId, ratio, authors))}
        />
        <label>
          <input
            type="checkbox"
            checked={board.locked}
            disabled={!editable}
            onChange={(event) => submit(setNumbersLocked(boardId, event.target.checked, authors))}
          />{' '}
          Lock numbers
        </label>
        {board.locked ? (
          <button
            type="button"
            className="button-small"
            disabled={!editable}
            onClick={() => submit(renumber(boardId, authors))}
          >
            Renumber
          </button>
        ) : null}
        <Filter
          label="Scene"
          value={filters.scene}
          options={scenes}
          onChange={(scene) => setFilters({ ...filters, scene })}
        />
        <Filter
          label="Cast"
          value={filters.cast}
          options={cast}
          onChange={(value) => setFilters({ ...filters, cast: value })}
        />
        <Filter
          label="Status"
          value={filters.status}
          options={Object.keys(SHOT_STATUSES)}
          labels={SHOT_STATUSES}
          onChange={(status) => setFilters({ ...filters, status })}
        />
        <label>
          Sort{' '}
          <Select
            label="Sort"
            value={sort}
            onChange={(next) => setSort(next as SortKey)}
            options={[
              { value: 'order', label: 'Board order' },
              { value: 'scene', label: 'Scene' },
              { value: 'status', label: 'Status' },
              { value: 'duration', label: 'Duration' },
            ]}
          />
        </label>
        <a className="button-small" href={download('csv')} download>
          CSV
        </a>
        <a className="button-small" href={download('xlsx')} download>
          XLSX
        </a>
        <button
          type="button"
          className="button-small"
          disabled={!editable}
          onClick={() => submit(addShot(boardId, authors))}
        >
          Add a shot
        </button>
        {importControls}
        <CheckMenu
          label="Columns"
          options={SHOT_COLUMNS.map((column) => ({ id: column.id, label: column.header }))}
          checked={columns}
          onChange={(next) => {
            setColumns(next);
            keepColumns(place, next);
          }}
        />
      </ShotListHeader>
      {reportBox}
      {!reorderable && editable ? (
        <p className="muted">Sorted or filtered: choose board order and no filter to reorder shots.</p>
      ) : null}
      <div className="shot-table-wrap">
        <table className="shot-table">
          <caption className="visually-hidden">Shots of {boardTitle(board)}, in board order</caption>
          <thead>
            <tr>
              <th scope="col">Shot</th>
              {SHOT_COLUMNS.filter((column) => shownColumns.has(column.id)).map((column) => (
                <th key={column.id} scope="col">
                  {column.header}
                </th>
              ))}
              <th scope="col">Order</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((shot) => (
              <ShotRow
                key={shot.id}
                shot={shot}
                flag={flags.get(shot.id) ?? null}
                index={board.shots.indexOf(shot)}
                count={board.shots.length}
                editable={editable}
                reorderable={reorderable}
                save={(fields) => submit(editShot(boardId, shot.id, fields, authors))}
                move={(toIndex) => submit(moveShot(boardId, shot.id, toIndex, authors))}
                // The row dropped on takes the dragged shot's place: on a later row it goes after it, on an earlier before.
                dropHere={(draggedId) => submit(moveShot(boardId, draggedId, board.shots.indexOf(shot), authors))}
                remove={() => submit(removeShot(boardId, shot.id, authors))}
                continueFromPrevious={() => submit(continueFromPrevious(boardId, shot.id, authors))}
                picture={shotPicture(shot, states)}
                elements={shotElements(shot as ShotWords, elements).map((element) => element.name)}
                generate={() => void generate(shot)}
                boardId={boardId}
                columns={shownColumns}
                comment={() => onComment?.(boardId, shot.id)}
                sending={sending.has(shot.id)}
                putFiles={(files) => {
                  const number = shot.number ?? String(board.shots.indexOf(shot) + 1);
                  setSending((now) => new Set([...now, shot.id]));
                  void picturesOntoShots(
                    controller,
                    { boardId, shotId: shot.id, where: `Shot ${number} of ${boardTitle(board)}` },
                    files,
                  ).finally(() => setSending((now) => new Set([...now].filter((id) => id !== shot.id))));
                }}
                pick={() =>
                  setPicking({ shotId: shot.id, number: shot.number ?? String(board.shots.indexOf(shot) + 1) })
                }
                pickEarlier={(url) =>
                  submit(setShotPicture(boardId, shot.id, url, 'Pick an earlier picture', authors, currentStates))
                }
              />
            ))}
          </tbody>
        </table>
        {board.shots.length === 0 ? <p className="muted">This board has no shots yet: add one.</p> : null}
      </div>
      {picking ? (
        <PicturePicker
          shotLabel={`shot ${picking.number}`}
          onClose={() => setPicking(null)}
          onPick={(url, cardTitle) => {
            setPicking(null);
            submit(setShotPicture(boardId, picking.shotId, url, `Picture from ${cardTitle}`, authors, currentStates));
          }}
        />
      ) : null}
    </section>
  );
}

const CUSTOM = 'custom';

/**
 * The board's frame shape (docs/storyboards.md, "Frame shapes and guides"): a preset, or "Custom…" and a W:H typed in
 * (1.43:1 IMAX, 5:4, 2:1). A custom shape is checked before anything is sent: refused, it says why naming the field,
 * and nothing is saved.
 */
function FrameShapePicker({
  aspectRatio,
  editable,
  save,
}: {
  aspectRatio: string | undefined;
  editable: boolean;
  save: (ratio: string) => void;
}) {
  const [custom, setCustom] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const preset = aspectRatio !== undefined && (BOARD_ASPECTS as readonly string[]).includes(aspectRatio);
  const saveCustom = () => {
    const checked = customFrameShape(custom ?? '');
    if ('refusal' in checked) {
      setRefusal(checked.refusal);
      return;
    }
    setRefusal(null);
    setCustom(null);
    if (checked.ratio !== aspectRatio) save(checked.ratio);
  };
  return (
    <span className="frame-shape">
      <label>
        Frame{' '}
        <Select
          label="Frame"
          value={custom !== null ? CUSTOM : (aspectRatio ?? '')}
          disabled={!editable}
          onChange={(next) => {
            setRefusal(null);
            if (next === CUSTOM) setCustom(aspectRatio && !preset ? aspectRatio : '');
            else {
              setCustom(null);
              save(next);
            }
          }}
          options={[
            ...(aspectRatio && !preset ? [{ value: aspectRatio, label: aspectRatio }] : []),
            ...(!aspectRatio ? [{ value: '', label: 'not set' }] : []),
            ...BOARD_ASPECTS.map((aspect) => ({ value: aspect, label: aspect })),
            { value: CUSTOM, label: 'Custom…' },
          ]}
        />
      </label>
      {custom !== null ? (
        <form
          className="frame-shape-custom"
          aria-label="Custom frame shape"
          onSubmit={(event) => {
            event.preventDefault();
            saveCustom();
          }}
        >
          <label>
            W:H{' '}
            <input
              type="text"
              inputMode="decimal"
              size={8}
              autoFocus
              placeholder="1.43:1"
              value={custom}
              aria-invalid={refusal !== null || undefined}
              aria-describedby={refusal ? 'frame-shape-refusal' : undefined}
              onChange={(event) => setCustom(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') {
                  setCustom(null);
                  setRefusal(null);
                }
              }}
            />
          </label>{' '}
          <button type="submit" className="button-small">
            Set
          </button>
          {refusal ? (
            <span id="frame-shape-refusal" className="field-error" role="alert">
              {refusal}
            </span>
          ) : null}
        </form>
      ) : null}
    </span>
  );
}

function ShotListHeader({ onClose, children }: { onClose?: () => void; children?: React.ReactNode }) {
  return (
    <div className="shot-list-bar">
      <h2>Shot list</h2>
      {children}
      <span className="spacer" />
      {onClose ? (
        <button type="button" className="button-small" onClick={onClose}>
          Close
        </button>
      ) : null}
    </div>
  );
}

function Filter({
  label,
  value,
  options,
  labels,
  onChange,
}: {
  label: string;
  value: string;
  options: string[];
  labels?: Record<string, string>;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}{' '}
      <Select
        label={label}
        value={value}
        onChange={onChange}
        options={[
          { value: '', label: 'all' },
          ...options.map((option) => ({ value: option, label: labels?.[option] ?? option })),
        ]}
      />
    </label>
  );
}

function visibleShots(board: Board, sort: SortKey, filters: { scene: string; cast: string; status: string }): Shot[] {
  const shown = board.shots.filter(
    (shot) =>
      (!filters.scene || text(shot.scene) === filters.scene) &&
      (!filters.status || text(shot.status) === filters.status) &&
      (!filters.cast || (Array.isArray(shot.cast) && shot.cast.includes(filters.cast))),
  );
  if (sort === 'order') return shown;
  const key = (shot: Shot): string | number =>
    sort === 'scene'
      ? text(shot.scene)
      : sort === 'status'
        ? Object.keys(SHOT_STATUSES).indexOf(text(shot.status))
        : typeof shot.durationMs === 'number'
          ? shot.durationMs
          : 0;
  return [...shown].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return typeof x === 'number' && typeof y === 'number'
      ? x - y
      : String(x).localeCompare(String(y), undefined, { numeric: true });
  });
}

function distinct(values: string[]): string[] {
  return [...new Set(values.filter(Boolean))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

function boardTitle(board: Board): string {
  const data = dataOf(board.node, 'storyboardNode');
  return (
    (typeof data?.title === 'string' && data.title) ||
    (typeof data?.displayName === 'string' && data.displayName) ||
    board.node.id
  );
}
