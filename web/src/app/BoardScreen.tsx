import { useEffect, useState } from 'react';
import { dataOf } from '../../../src/contract/index.js';
import { Animatic } from '../board/Animatic.js';
import { BoardGrid } from '../board/BoardGrid.js';
import { ShortcutSheet } from '../board/ShortcutSheet.js';
import { WhoIsHere } from '../canvas/PresenceLayer.js';
import { BoardReviewState } from '../cards/review-marks.js';
import { FrameEditorHost } from '../draw/FrameEditor.js';
import { presenceReporter } from '../model/presence-report.js';
import { boardTitle } from '../model/present.js';
import { useReviewController } from '../model/review.js';
import { Notices } from '../panels/Notices.js';
import { CommentsPanel } from '../panels/review/CommentsPanel.js';
import { ShotList } from '../panels/shots/ShotList.js';
import { useCanvas, useCanvasState } from '../ui/canvas-context.js';
import { CanvasStatus, UndoButton } from './CanvasStatus.js';
import { Inbox } from './Inbox.js';
import { canvasStatusScreen, OpenCanvas } from './OpenCanvas.js';
import { isKeyForField } from '../ui/fields.js';
import { TabList, TabPanel, TabsRoot } from '../ui/tabs.js';
import { Tooltip } from '../ui/tooltip.js';
import { canvasHref, navigate } from './router.js';

/**
 * The board page (docs/ui.md, "The board page"): one storyboard as a page of its own, at
 * /p/{project}/c/{canvas}/board/{node}, in three views: Grid (large frames with their fields, edited in place), List
 * (the shot list, full width) and Animatic (the shots on a time line, played and trimmed). It opens its canvas as the
 * canvas page does (OpenCanvas: the same controller, change feed, review and presence), so what people and agents
 * change anywhere shows here at once, and every change made here is one revision of the board that undo takes back.
 */

type View = 'grid' | 'list' | 'animatic';
const VIEWS: ReadonlyArray<{ id: View; label: string }> = [
  { id: 'grid', label: 'Grid' },
  { id: 'list', label: 'List' },
  { id: 'animatic', label: 'Animatic' },
];

/** The view the address names (?view=list), so a reload or a shared link opens the same one. */
function viewOfAddress(): View {
  const asked = new URLSearchParams(window.location.search).get('view');
  return asked === 'list' || asked === 'animatic' ? asked : 'grid';
}

export function BoardScreen({ projectId, canvasId, nodeId }: { projectId: string; canvasId: string; nodeId: string }) {
  return (
    <OpenCanvas projectId={projectId} canvasId={canvasId}>
      <BoardBody nodeId={nodeId} />
    </OpenCanvas>
  );
}

function BoardBody({ nodeId }: { nodeId: string }) {
  const { controller } = useCanvas();
  const status = useCanvasState((state) => state.status);
  const error = useCanvasState((state) => state.error);
  const address = useCanvasState((state) => state.address);
  const node = useCanvasState((state) =>
    state.layout.nodes.find((each) => each.id === nodeId && each.type === 'storyboardNode'),
  );
  const review = useReviewController();
  const [view, setView] = useState<View>(viewOfAddress);
  const [keys, setKeys] = useState(false);
  const [comments, setComments] = useState(() => review?.store.getState().focus != null);
  const title = node ? boardTitle(node) : nodeId;

  // Who else is here sees this person on the board (its card outlined on their canvas).
  useEffect(() => {
    if (status !== 'ready') return;
    const reports = presenceReporter(controller, { selection: [nodeId], cursor: null });
    return () => reports.stop();
  }, [controller, status, nodeId]);

  // "?" lists the keys and Ctrl+Z undoes, from anywhere on the page but a field.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isKeyForField(event.target)) return;
      if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        setKeys(true);
      } else if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        void controller.undoLast();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controller]);

  useEffect(() => {
    const before = document.title;
    document.title = `${title} · board`;
    return () => {
      document.title = before;
    };
  }, [title]);

  const choose = (next: View) => {
    setView(next);
    const url = new URL(window.location.href);
    if (next === 'grid') url.searchParams.delete('view');
    else url.searchParams.set('view', next);
    window.history.replaceState(null, '', `${url.pathname}${url.search}`);
  };

  const gate = canvasStatusScreen(status, error);
  if (gate) return gate;
  const canvasLink = canvasHref(address.projectId, address.canvasId);
  if (!node)
    return (
      <main className="screen-message">
        There is no storyboard "{nodeId}" on this canvas (it may have been deleted).{' '}
        <a
          href={canvasLink}
          onClick={(event) => {
            event.preventDefault();
            navigate(canvasLink);
          }}
        >
          Open the canvas
        </a>
      </main>
    );
  const aspect = dataOf(node, 'storyboardNode')?.aspectRatio;
  return (
    <TabsRoot className="board-screen" ids={VIEWS.map((each) => each.id)} value={view} onChange={choose}>
      <BoardTopBar
        title={title}
        aspect={aspect}
        nodeId={nodeId}
        comments={comments}
        toggleComments={() => setComments((open) => !open)}
        showKeys={() => setKeys(true)}
        canvasLink={canvasLink}
      />
      <FrameEditorHost />
      {keys ? <ShortcutSheet onClose={() => setKeys(false)} /> : null}
      <div className="board-workspace">
        <TabPanel value={view}>
          <main className="board-main">
            {view === 'grid' ? <BoardGrid boardId={nodeId} title={title} /> : null}
            {view === 'list' ? (
              <ShotList
                selected={nodeId}
                board={nodeId}
                place="page"
                onComment={(_board, shotId) => {
                  review?.store.setState({ compose: { nodeId, shotId } });
                  setComments(true);
                }}
              />
            ) : null}
            {view === 'animatic' ? <Animatic boardId={nodeId} /> : null}
          </main>
        </TabPanel>
        {comments ? (
          <aside className="board-side" aria-label="Comments">
            <CommentsPanel selected={nodeId} />
          </aside>
        ) : null}
      </div>
      <Notices onShow={() => navigate(canvasLink)} />
    </TabsRoot>
  );
}

function BoardTopBar({
  title,
  aspect,
  nodeId,
  comments,
  toggleComments,
  showKeys,
  canvasLink,
}: {
  title: string;
  aspect: string | undefined;
  nodeId: string;
  comments: boolean;
  toggleComments: () => void;
  showKeys: () => void;
  canvasLink: string;
}) {
  const address = useCanvasState((state) => state.address);
  const person = useCanvasState((state) => state.person);
  const names = useCanvasState((state) => state.names);
  return (
    <header className="topbar board-topbar">
      <a
        className="back"
        href={canvasLink}
        onClick={(event) => {
          event.preventDefault();
          navigate(canvasLink);
        }}
      >
        ← {names?.canvas ?? address.canvasId}
      </a>
      <h1>
        {title} {aspect ? <span className="muted">{aspect}</span> : null}
      </h1>
      <TabList label="View" tabs={VIEWS} className="board-views" />
      <BoardReviewState nodeId={nodeId} />
      <CanvasStatus />
      <span className="spacer" />
      <WhoIsHere />
      <UndoButton />
      <button type="button" className="button-small" aria-pressed={comments} onClick={toggleComments}>
        Comments
      </button>
      <Tooltip content="Every key of this page (?)">
        <button type="button" className="button-small" onClick={showKeys}>
          Keys
        </button>
      </Tooltip>
      <Inbox />
      <span className="who">{person ? (names?.person ?? person.subject) : ''}</span>
    </header>
  );
}
