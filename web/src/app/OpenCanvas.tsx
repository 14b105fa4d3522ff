import { ReactFlowProvider } from '@xyflow/react';
import { useEffect, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import type { SkillCatalog } from '../../../src/contract/index.js';
import { api, newKey } from '../model/api.js';
import type { CanvasController, CanvasState } from '../model/canvas-state.js';
import { createCanvasController } from '../model/canvas-store.js';
import { createReviewController, ReviewContext, type ReviewController } from '../model/review.js';
import { createRoomController, memberRoomSender, RoomContext, type RoomController } from '../model/review-room.js';
import { restTransport } from '../model/transport.js';
import { CanvasContext } from '../ui/canvas-context.js';
import { Landing } from './Landing.js';
import { boardHref } from './router.js';

/**
 * One open canvas for a page of the web app (the canvas, a board page): its controller (the layout, the change feed,
 * the person's writes and undo), review on the same feed, presence, and the skill catalog, made once and given to
 * everything inside. Both pages open a canvas through here, so a board page sees the same live edits, comments and
 * review states as the canvas does.
 */
export function OpenCanvas({
  projectId,
  canvasId,
  children,
}: {
  projectId: string;
  canvasId: string;
  children: ReactNode;
}) {
  // Made inside the effect that closes it: a controller is never used again after close (StrictMode runs effects twice).
  const [controller, setController] = useState<CanvasController | null>(null);
  const [review, setReview] = useState<ReviewController | null>(null);
  const [rooms, setRooms] = useState<RoomController | null>(null);
  const [skills, setSkills] = useState<SkillCatalog | null>(null);
  useEffect(() => {
    const address = { projectId, canvasId };
    // Review rides the same change feed: its comment and review events go to the review controller, its room events
    // to the room controller. The page's tab names both its presence and the room it presents.
    const reviewing = createReviewController(address, new URLSearchParams(window.location.search).get('thread'));
    const tab = newKey();
    let opened: CanvasController | null = null;
    const roomsOfPage = createRoomController({
      me: () => opened?.store.getState().person ?? null,
      sender: memberRoomSender(address),
      tab,
    });
    opened = createCanvasController(address, {
      transport: restTransport(
        address,
        EventSource,
        {
          ...reviewing.feed,
          room: roomsOfPage.feed.room,
          connected: () => {
            reviewing.feed.connected();
            roomsOfPage.feed.connected();
          },
        },
        tab,
      ),
    });
    setReview(reviewing);
    setRooms(roomsOfPage);
    setController(opened);
    void opened.load();
    void reviewing.load();
    return () => opened.close();
  }, [projectId, canvasId]);
  useEffect(() => {
    api.skills().then(setSkills, () => setSkills({ skills: [] }));
  }, []);
  const context = useMemo(
    () =>
      controller ? { controller, skills, boardHref: (nodeId: string) => boardHref(projectId, canvasId, nodeId) } : null,
    [controller, skills, projectId, canvasId],
  );
  if (!context) return <main className="screen-message">Opening the canvas…</main>;
  return (
    <CanvasContext.Provider value={context}>
      <ReviewContext.Provider value={review}>
        <RoomContext.Provider value={rooms}>
          <ReactFlowProvider>{children}</ReactFlowProvider>
        </RoomContext.Provider>
      </ReviewContext.Provider>
    </CanvasContext.Provider>
  );
}

/**
 * What a page of an open canvas shows instead of itself while the canvas is not ready: opening, how to sign in, not a
 * member, no such canvas, or why it failed. Null once it is ready.
 */
export function canvasStatusScreen(status: CanvasState['status'], error: string | null): ReactElement | null {
  if (status === 'ready') return null;
  if (status === 'loading') return <main className="screen-message">Opening the canvas…</main>;
  // Only someone whose session ended is told so; someone who never signed in is shown how to.
  if (status === 'signed-out')
    return (
      <Landing
        reason={
          error?.startsWith('Your session has ended')
            ? 'Your session has ended. Sign in again with a new link.'
            : 'This canvas is for the people of its project: sign in to open it.'
        }
      />
    );
  if (status === 'forbidden')
    return <main className="screen-message">You are not a member of this project. Ask an owner to add you.</main>;
  if (status === 'missing')
    return <main className="screen-message">There is no such canvas. Go back to your canvases.</main>;
  return <main className="screen-message">The canvas could not be opened: {error}. Reload the page to try again.</main>;
}
