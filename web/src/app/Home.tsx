import { useEffect, useState } from 'react';
import type { MeView } from '../../../src/contract/index.js';
import { api, ApiError } from '../model/api.js';
import { Landing } from './Landing.js';
import { canvasHref, navigate } from './router.js';

/** The projects and canvases the signed-in person can open. */
export function Home() {
  const [me, setMe] = useState<MeView | null>(null);
  const [failure, setFailure] = useState<'signed-out' | 'error' | null>(null);

  useEffect(() => {
    api.me().then(setMe, (error: unknown) => setFailure(error instanceof ApiError && error.status === 401 ? 'signed-out' : 'error'));
  }, []);

  if (failure === 'signed-out') return <Landing />;
  if (failure === 'error') return <Landing reason="The server did not answer as expected. Reload the page in a moment." />;
  if (!me) return <main className="home">Loading…</main>;

  return (
    <main className="home">
      <header className="home-header">
        <h1>Your canvases</h1>
        <div className="who">
          {me.person ? `Signed in as ${me.person.subject}` : 'Signed in with a token'}
          {me.kind === 'person' ? (
            <button type="button" onClick={() => void api.logout().then(() => window.location.assign('/'))}>
              Sign out
            </button>
          ) : null}
        </div>
      </header>
      {me.projects.length === 0 ? <p>You are not a member of any project yet. Ask an owner to add you.</p> : null}
      {me.projects.map((project) => (
        <section key={project.project_id} className="project">
          <h2>
            {project.project_id} <span className="role">{project.role}</span>
          </h2>
          <ul>
            {project.canvases.map((canvas) => (
              <li key={canvas.canvas_id}>
                <a
                  href={canvasHref(project.project_id, canvas.canvas_id)}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(canvasHref(project.project_id, canvas.canvas_id));
                  }}
                >
                  {canvas.canvas_id}
                </a>
                <span className="meta">
                  revision {canvas.revision}
                  {canvas.locked ? ' · locked' : ''}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}
