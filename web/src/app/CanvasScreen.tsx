import { useReactFlow } from '@xyflow/react';
import { Suspense, lazy, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { NotificationView } from '../../../src/contract/index.js';
import { CanvasView } from '../canvas/CanvasView.js';
import { FrameEditorHost } from '../draw/FrameEditor.js';
import { FileUploads } from '../canvas/FileUploads.js';
import { WhoIsHere } from '../canvas/PresenceLayer.js';
import { fitCanvas } from '../canvas/fit.js';
import { useCanvas, useCanvasState, useEditable } from '../ui/canvas-context.js';
import type { FlowNode } from '../cards/card-data.js';
import { api } from '../model/api.js';
import type { CanvasController } from '../model/canvas-state.js';
import { ConnectAgent } from '../panels/agents/ConnectAgent.js';
import { ElementsPanel } from '../panels/elements/ElementsPanel.js';
import { ExportsPanel } from '../panels/deliverables/ExportsPanel.js';
import { RunApprovals } from '../panels/agents/RunApprovals.js';
import { Present } from '../panels/deliverables/Present.js';
import { boardTitle, presentBoards, type PresentBoard } from '../model/present.js';
import { HistoryPanel } from '../panels/history/HistoryPanel.js';
import { NodeDetails } from '../panels/details/NodeDetails.js';
import { Notices } from '../panels/Notices.js';
import { Palette } from '../panels/palette/Palette.js';
import { ShotList } from '../panels/shots/ShotList.js';
import { CommentsPanel } from '../panels/review/CommentsPanel.js';
import { registerCanvasTools } from '../model/webmcp.js';
import { useReviewController } from '../model/review.js';
import { useRoomController } from '../model/review-room.js';
import { boardsOf } from '../model/shots.js';
import { RoomBanner } from '../panels/deliverables/RoomBanner.js';
import { Inbox } from './Inbox.js';
import { canvasStatusScreen, OpenCanvas } from './OpenCanvas.js';
import { CanvasStatus, UndoButton } from './CanvasStatus.js';
import { navigate } from './router.js';
import { Tabs } from '../ui/tabs.js';
import { Tooltip } from '../ui/tooltip.js';

/** One open canvas: the top bar, the palette, the canvas and the side panels. */

type Tab = 'details' | 'comments' | 'history' | 'elements' | 'exports' | 'chat' | 'connect';

// The chat brings the AI SDK with it: loaded when its tab is first opened, not with the canvas.
const ChatPanel = lazy(() => import('../panels/chat/ChatPanel.js').then((module) => ({ default: module.ChatPanel })));

function TopBar({
  shotList,
  toggleShotList,
  present,
  openHere,
}: {
  shotList: boolean;
  toggleShotList: () => void;
  present: () => void;
  openHere: (notification: NotificationView) => boolean;
}) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const address = useCanvasState((state) => state.address);
  const person = useCanvasState((state) => state.person);
  const names = useCanvasState((state) => state.names);
  const flow = useReactFlow<FlowNode>();
  return (
    <header className="topbar">
      <a
        className="back"
        href="/"
        onClick={(event) => {
          event.preventDefault();
          navigate('/');
        }}
      >
        ← Canvases
      </a>
      <h1>
        {names?.project ?? address.projectId} <span className="muted">/</span> {names?.canvas ?? address.canvasId}
      </h1>
      <CanvasStatus />
      <span className="spacer" />
      <WhoIsHere />
      <UndoButton />
      <Tooltip content="The shots of a storyboard as a table: edit, reorder, export">
        <button type="button" className="button-small" aria-pressed={shotList} onClick={toggleShotList}>
          Shot list
        </button>
      </Tooltip>
      <Tooltip content="The storyboards' shots full screen, in order (arrow keys; Esc leaves)">
        <button type="button" className="button-small" onClick={present}>
          Present
        </button>
      </Tooltip>
      <Tooltip content="Lay out the selected cards (or every card) along their connections, as one change">
        <button
          type="button"
          className="button-small"
          disabled={!editable}
          onClick={() => void tidy(controller, flow.getNodes())}
        >
          Tidy
        </button>
      </Tooltip>
      <Tooltip content="Fit view (F)">
        <button
          type="button"
          className="button-small"
          onClick={() => fitCanvas(flow, controller.store.getState().layout.nodes, 200)}
        >
          Fit
        </button>
      </Tooltip>
      <Inbox openHere={openHere} />
      <span className="who">{person ? (names?.person ?? person.subject) : ''}</span>
    </header>
  );
}

/**
 * Tidy (docs/ui.md, "Tidy"): the selected cards when two or more of one parent are selected, else every card on the
 * canvas itself, laid out by the server as one revision (it comes back through the feed; History reverts it).
 */
async function tidy(
  controller: CanvasController,
  flowNodes: ReadonlyArray<{ id: string; selected?: boolean; parentId?: string }>,
) {
  const { layout, address } = controller.store.getState();
  const selected = flowNodes.filter((node) => node.selected);
  const oneParent = new Set(selected.map((node) => node.parentId ?? null)).size === 1;
  try {
    await api.tidy(address, {
      base_revision: layout.revision,
      client_save_id: null,
      mode: 'flow',
      ...(selected.length >= 2 && oneParent ? { node_ids: selected.map((node) => node.id) } : {}),
    });
  } catch (error) {
    controller.notify('error', `Tidy was not applied: ${(error as Error).message}`);
  }
}

type Presenting = { boards: Array<PresentBoard & { nodeId: string }>; start: number };

/** Present mode from the canvas: its boards as they are now, starting at the selected one; animatics when exported. */
async function present(controller: CanvasController, selected: string | null): Promise<Presenting> {
  const { layout, states, address } = controller.store.getState();
  const exports = await api.exports(address).then(
    (list) => list.exports,
    () => [],
  );
  const boards = presentBoards(layout, states, exports);
  return {
    boards,
    start: Math.max(
      0,
      boards.findIndex((board) => board.nodeId === selected),
    ),
  };
}

const SIDE_TABS: ReadonlyArray<{ id: Tab; label: string }> = [
  { id: 'details', label: 'Details' },
  { id: 'comments', label: 'Comments' },
  { id: 'history', label: 'History' },
  { id: 'elements', label: 'Elements' },
  { id: 'exports', label: 'Exports' },
  { id: 'chat', label: 'Chat' },
  { id: 'connect', label: 'Agents' },
];

function sidePanelOf(tab: Tab, selected: string | null): ReactNode {
  switch (tab) {
    case 'details':
      return <NodeDetails nodeId={selected} />;
    case 'comments':
      return <CommentsPanel selected={selected} />;
    case 'history':
      return <HistoryPanel />;
    case 'elements':
      return <ElementsPanel />;
    case 'exports':
      return <ExportsPanel selected={selected} />;
    case 'chat':
      return (
        <Suspense fallback={<p className="muted">Opening the chat…</p>}>
          <ChatPanel />
        </Suspense>
      );
    case 'connect':
      return <ConnectAgent />;
  }
}

function SidePanel({ selected, tab, setTab }: { selected: string | null; tab: Tab; setTab: (tab: Tab) => void }) {
  return (
    <aside className="side">
      <Tabs
        label="Side panel"
        className="side-tabs"
        panelClassName="side-body"
        value={tab}
        onChange={setTab}
        tabs={SIDE_TABS.map((each) => ({ ...each, panel: sidePanelOf(each.id, selected) }))}
      />
    </aside>
  );
}

function CanvasBody() {
  const status = useCanvasState((state) => state.status);
  const error = useCanvasState((state) => state.error);
  const [selected, setSelected] = useState<string | null>(null);
  const review = useReviewController();
  // Opened from the inbox on a thread: the Comments tab, on that thread.
  const [tab, setTab] = useState<Tab>(() => (review?.store.getState().focus ? 'comments' : 'details'));
  // On a narrow screen (a tablet) the palette and the side panel are drawers over the canvas, one open at a time.
  const [drawer, setDrawer] = useState<'palette' | 'panel' | null>(null);
  const [shotList, setShotList] = useState(false);
  const [presenting, setPresenting] = useState<Presenting | null>(null);
  const { controller } = useCanvas();
  const rooms = useRoomController();
  const layout = useCanvasState((state) => state.layout);
  const boardTitles = useMemo(
    () => new Map(boardsOf(layout).map((board) => [board.node.id, boardTitle(board.node)])),
    [layout],
  );
  const role = useCanvasState((state) => state.role);
  const flow = useReactFlow<FlowNode>();
  // A browser's agent (WebMCP, where the browser offers it) gets the canvas's tools while it is open, with the
  // person's rights: registered again when those change.
  useEffect(() => {
    if (status !== 'ready') return;
    return registerCanvasTools(controller, {
      viewCentre: () => {
        const pane = document.querySelector('.canvas .react-flow')?.getBoundingClientRect();
        return pane
          ? flow.screenToFlowPosition({ x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 })
          : { x: 0, y: 0 };
      },
    });
  }, [controller, status, role, flow]);
  const toggle = (which: 'palette' | 'panel') => setDrawer((open) => (open === which ? null : which));
  const gate = canvasStatusScreen(status, error);
  if (gate) return gate;
  return (
    <div className="canvas-screen">
      <TopBar
        shotList={shotList}
        toggleShotList={() => setShotList((open) => !open)}
        present={() => void present(controller, selected).then(setPresenting)}
        openHere={(notification) => {
          const { address } = controller.store.getState();
          if (notification.project_id !== address.projectId || notification.canvas_id !== address.canvasId)
            return false;
          review?.store.setState({ focus: notification.thread_id });
          if (notification.thread_id) setTab('comments');
          else setShotList(true);
          setDrawer('panel');
          return true;
        }}
      />
      {rooms ? (
        <RoomBanner
          controller={rooms}
          titleOf={(board) => boardTitles.get(board) ?? null}
          onFollow={(board) => {
            rooms.follow(board);
            void present(controller, board).then(setPresenting);
          }}
        />
      ) : null}
      <RunApprovals />
      <FrameEditorHost />
      {presenting ? (
        <Present
          boards={presenting.boards}
          startBoard={presenting.start}
          onClose={() => setPresenting(null)}
          room={rooms ? { controller: rooms, boardIds: presenting.boards.map((board) => board.nodeId) } : null}
        />
      ) : null}
      <div className="drawer-toggles narrow-only">
        <button
          type="button"
          className="button-small"
          aria-expanded={drawer === 'palette'}
          onClick={() => toggle('palette')}
        >
          Add
        </button>
        <button
          type="button"
          className="button-small"
          aria-expanded={drawer === 'panel'}
          onClick={() => toggle('panel')}
        >
          Panel
        </button>
      </div>
      <FileUploads>
        <div className="workspace" data-drawer={drawer ?? 'none'}>
          <Palette />
          <main className="canvas">
            <CanvasView
              onSelect={setSelected}
              onOpen={(nodeId) => {
                setSelected(nodeId);
                setTab('details');
                setDrawer('panel');
              }}
            />
            {shotList ? (
              <ShotList
                selected={selected}
                onClose={() => setShotList(false)}
                onComment={(nodeId, shotId) => {
                  review?.store.setState({ compose: { nodeId, shotId } });
                  setTab('comments');
                  setDrawer('panel');
                }}
              />
            ) : null}
          </main>
          <SidePanel selected={selected} tab={tab} setTab={setTab} />
        </div>
      </FileUploads>
      <Notices />
    </div>
  );
}

export function CanvasScreen({ projectId, canvasId }: { projectId: string; canvasId: string }) {
  return (
    <OpenCanvas projectId={projectId} canvasId={canvasId}>
      <CanvasBody />
    </OpenCanvas>
  );
}
