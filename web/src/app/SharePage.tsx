import { useEffect, useState } from 'react';
import type { SharedBoardsView } from '../../../src/contract/index.js';
import { api, ApiError } from '../model/api.js';
import { Present, type PresentBoard } from '../panels/Present.js';

/**
 * What a share link opens (issue 35, item 6): the boards it shows in Present mode and the downloads its owner chose,
 * for someone without an account. A revoked or expired link says so, and shows nothing.
 */

function boardsOf(view: SharedBoardsView): PresentBoard[] {
  // An animatic among the downloads plays under the board it was made from when there is one board.
  const animatic = view.downloads.find((download) => download.content_type === 'video/mp4');
  return view.boards.map((board) => ({
    title: board.title,
    aspect: board.aspect,
    animaticUrl: view.boards.length === 1 ? (animatic?.url ?? null) : null,
    shots: board.shots.map((shot) => ({
      id: shot.id,
      number: shot.number,
      pictureUrl: shot.picture_url,
      caption: shot.caption,
      action: shot.action,
      dialogue: shot.dialogue,
      camera: shot.camera,
      durationMs: shot.duration_ms,
    })),
  }));
}

export function SharePage({ secret }: { secret: string }) {
  const [view, setView] = useState<SharedBoardsView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [presenting, setPresenting] = useState<{ board: number; shot: number } | null>(null);
  useEffect(() => {
    api
      .shared(secret)
      .then(setView, (error: unknown) =>
        setProblem(error instanceof ApiError ? error.message : 'The link could not be opened. Try again in a moment.'),
      );
  }, [secret]);

  if (problem)
    return (
      <main className="screen-message" data-share-state="ended">
        <h1>This link does not open</h1>
        <p>{problem}</p>
      </main>
    );
  if (!view) return <main className="screen-message">Opening the shared board…</main>;
  const boards = boardsOf(view);
  if (presenting)
    return (
      <Present
        boards={boards}
        startBoard={presenting.board}
        startShot={presenting.shot}
        onClose={() => setPresenting(null)}
      />
    );
  return (
    <main className="shared-page" data-share-state="open">
      <h1>{view.title}</h1>
      <p className="muted">
        Shared with you to look at: {boards.map((board) => `${board.title} (${board.shots.length} shots)`).join(', ')}.
        This link works until {new Date(view.expires_at).toLocaleDateString()}.
      </p>
      <p>
        <button type="button" className="button-primary" onClick={() => setPresenting({ board: 0, shot: 0 })}>
          Present the board
        </button>
      </p>
      {boards.map((board, boardIndex) => (
        <section key={`${board.title}-${boardIndex}`} aria-label={board.title}>
          <h2>{board.title}</h2>
          <ol className="shared-shots">
            {board.shots.map((shot, shotIndex) => (
              <li key={shot.id}>
                <button type="button" onClick={() => setPresenting({ board: boardIndex, shot: shotIndex })}>
                  {shot.pictureUrl ? (
                    <img src={shot.pictureUrl} alt={`Shot ${shot.number}`} />
                  ) : (
                    <span className="shared-blank" aria-hidden="true" />
                  )}
                  <span>
                    <strong>{shot.number}</strong> {shot.caption ?? shot.action ?? shot.dialogue ?? ''}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </section>
      ))}
      {view.downloads.length > 0 ? (
        <section aria-label="Downloads">
          <h2>Downloads</h2>
          <ul>
            {view.downloads.map((download) => (
              <li key={download.url}>
                <a href={download.url} download={download.name}>
                  {download.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}
