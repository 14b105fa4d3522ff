import { useState } from 'react';
import { api } from '../model/api.js';
import { boardTitle } from '../model/present.js';
import { boardsOf } from '../model/shots.js';
import { boardHref, navigate } from './router.js';

/**
 * A canvas's storyboards on the home page, each a link to its board page (docs/ui.md, "The board page"). Read when
 * the person opens the list, not with the page: the home page lists every canvas, and most visits open none of these.
 */
export function CanvasBoards({ projectId, canvasId }: { projectId: string; canvasId: string }) {
  const [boards, setBoards] = useState<Array<{ id: string; title: string; shots: number }> | 'failed' | null>(null);
  const read = () => {
    if (boards !== null && boards !== 'failed') return;
    api.snapshot({ projectId, canvasId }).then(
      (snapshot) =>
        setBoards(
          boardsOf({ revision: snapshot.layout.revision, nodes: snapshot.layout.nodes, edges: [] }).map((board) => ({
            id: board.node.id,
            title: boardTitle(board.node),
            shots: board.shots.length,
          })),
        ),
      () => setBoards('failed'),
    );
  };
  return (
    <details className="canvas-boards" onToggle={(event) => event.currentTarget.open && read()}>
      <summary>
        Boards<span className="visually-hidden"> of {canvasId}</span>
      </summary>
      {boards === null ? <p className="muted">Reading the canvas…</p> : null}
      {boards === 'failed' ? <p className="muted">The canvas could not be read.</p> : null}
      {Array.isArray(boards) && boards.length === 0 ? <p className="muted">No storyboard on this canvas.</p> : null}
      {Array.isArray(boards) && boards.length > 0 ? (
        <ul>
          {boards.map((board) => (
            <li key={board.id}>
              <a
                href={boardHref(projectId, canvasId, board.id)}
                onClick={(event) => {
                  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
                  event.preventDefault();
                  navigate(boardHref(projectId, canvasId, board.id));
                }}
              >
                {board.title}
              </a>{' '}
              <span className="muted">
                {board.shots} {board.shots === 1 ? 'shot' : 'shots'}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}
