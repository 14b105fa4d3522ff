import { useEffect, useState } from 'react';
import type { MeView, SessionView, TemplateView } from '../../../src/contract/index.js';
import { api, ApiError } from '../model/api.js';
import { CanvasBoards } from './CanvasBoards.js';
import { Inbox } from './Inbox.js';
import { Landing } from './Landing.js';
import { useChange } from './use-change.js';
import { canvasHref, navigate, teamHref } from './router.js';
import { Avatar } from '../ui/avatar.js';
import { Select } from '../ui/select.js';

/** The projects and canvases the signed-in person can open; owners create and lock canvases here. */
export function Home() {
  const [me, setMe] = useState<MeView | null>(null);
  const [failure, setFailure] = useState<'signed-out' | 'error' | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const joined = new URLSearchParams(window.location.search).get('joined');

  const reload = () =>
    api
      .me()
      .then(setMe, (error: unknown) =>
        setFailure(error instanceof ApiError && error.status === 401 ? 'signed-out' : 'error'),
      );
  useEffect(() => {
    void reload();
  }, []);

  const { act, problem } = useChange(reload);

  if (failure === 'signed-out') return <Landing />;
  if (failure === 'error')
    return <Landing reason="The server did not answer as expected. Reload the page in a moment." />;
  if (!me) return <main className="home">Loading…</main>;

  return (
    <main className="home">
      <header className="home-header">
        <h1>Your canvases</h1>
        <div className="who">
          {me.kind === 'person' ? <Inbox /> : null}
          {me.person ? (
            <span className="signed-in-as">
              <Avatar name={me.display_name ?? me.person.subject} picture={me.picture_url} />
              Signed in as {me.display_name ?? me.person.subject}
            </span>
          ) : (
            'Signed in with a token'
          )}
          {me.kind === 'person' ? (
            <button type="button" onClick={() => void api.logout().then(() => window.location.assign('/'))}>
              Sign out
            </button>
          ) : null}
        </div>
      </header>
      {me.kind === 'person' ? <YourName me={me} onSaved={() => void reload()} /> : null}
      {me.kind === 'person' ? <YourPicture me={me} onSaved={() => void reload()} /> : null}
      {joined && me.projects.some((project) => project.project_id === joined) ? (
        <p className="notice notice-info" role="status">
          You joined project {joined}.
        </p>
      ) : null}
      {problem ? (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      ) : null}
      {me.projects.length === 0 ? (
        <p>You are not a member of any project yet. Ask an owner for an invitation link.</p>
      ) : null}
      {me.projects.some((project) => project.role === 'owner') ? (
        <OneField
          label="New project"
          placeholder="Spring Commercial"
          action="Create project"
          onSubmit={(title) => act(() => api.createProject(title))}
        />
      ) : null}
      {me.projects.map((project) => {
        const owner = project.role === 'owner';
        const isPending = (kind: Pending['kind'], canvasId?: string) =>
          pending?.kind === kind && pending.projectId === project.project_id && pending.canvasId === canvasId;
        const done = (change: () => Promise<unknown>) => act(change).then(() => setPending(null));
        return (
          <section key={project.project_id} className="project" data-project={project.project_id}>
            <h2 className="project-title">
              <span>
                {project.title ?? project.project_id} <span className="role">{project.role}</span>
              </span>
              <span className="project-actions">
                {owner ? (
                  <>
                    <button
                      type="button"
                      className="button-small"
                      onClick={() => setPending({ kind: 'rename', projectId: project.project_id })}
                    >
                      Rename project
                    </button>
                    <button
                      type="button"
                      className="button-small"
                      onClick={() => setPending({ kind: 'delete', projectId: project.project_id })}
                    >
                      Delete project
                    </button>
                  </>
                ) : null}
                <a
                  className="button-small"
                  href={teamHref(project.project_id)}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(teamHref(project.project_id));
                  }}
                >
                  Team
                </a>
              </span>
            </h2>
            {isPending('rename') ? (
              <OneField
                label={`New name of ${project.project_id}`}
                initial={project.title ?? ''}
                action="Rename"
                onSubmit={(title) => done(() => api.renameProject(project.project_id, title))}
                onCancel={() => setPending(null)}
              />
            ) : null}
            {isPending('delete') ? (
              <TypedConfirm
                what={`project ${project.project_id} and all its canvases`}
                id={project.project_id}
                onConfirm={(typed) => done(() => api.deleteProject(project.project_id, typed))}
                onCancel={() => setPending(null)}
              />
            ) : null}
            <ul>
              {project.canvases.map((canvas) => (
                <li key={canvas.canvas_id} data-canvas={canvas.canvas_id}>
                  <div className="canvas-row">
                    <a
                      href={canvasHref(project.project_id, canvas.canvas_id)}
                      onClick={(event) => {
                        event.preventDefault();
                        navigate(canvasHref(project.project_id, canvas.canvas_id));
                      }}
                    >
                      {canvas.title ?? canvas.canvas_id}
                    </a>
                    <span className="meta">
                      {canvas.title ? `${canvas.canvas_id} · ` : ''}revision {canvas.revision}
                      {canvas.locked ? ' · locked' : ''}
                      {owner ? (
                        <>
                          <button
                            type="button"
                            className="button-small"
                            aria-label={`${canvas.locked ? 'Unlock' : 'Lock'} ${canvas.canvas_id}`}
                            onClick={() =>
                              void act(() =>
                                api.changeCanvas(project.project_id, canvas.canvas_id, { locked: !canvas.locked }),
                              )
                            }
                          >
                            {canvas.locked ? 'Unlock' : 'Lock'}
                          </button>
                          <button
                            type="button"
                            className="button-small"
                            aria-label={`Rename ${canvas.canvas_id}`}
                            onClick={() =>
                              setPending({ kind: 'rename', projectId: project.project_id, canvasId: canvas.canvas_id })
                            }
                          >
                            Rename
                          </button>
                          <button
                            type="button"
                            className="button-small"
                            aria-label={`Duplicate ${canvas.canvas_id}`}
                            onClick={() =>
                              setPending({
                                kind: 'duplicate',
                                projectId: project.project_id,
                                canvasId: canvas.canvas_id,
                              })
                            }
                          >
                            Duplicate
                          </button>
                          <button
                            type="button"
                            className="button-small"
                            aria-label={`Save as template: ${canvas.canvas_id}`}
                            onClick={() =>
                              setPending({
                                kind: 'template',
                                projectId: project.project_id,
                                canvasId: canvas.canvas_id,
                              })
                            }
                          >
                            Save as template
                          </button>
                          <button
                            type="button"
                            className="button-small"
                            aria-label={`Delete ${canvas.canvas_id}`}
                            onClick={() =>
                              setPending({ kind: 'delete', projectId: project.project_id, canvasId: canvas.canvas_id })
                            }
                          >
                            Delete
                          </button>
                        </>
                      ) : null}
                    </span>
                  </div>
                  <CanvasBoards projectId={project.project_id} canvasId={canvas.canvas_id} />
                  {isPending('template', canvas.canvas_id) ? (
                    <OneField
                      label={`Template name for ${canvas.canvas_id}`}
                      initial={canvas.title ?? ''}
                      action="Save template"
                      onSubmit={(title) => done(() => api.saveTemplate(project.project_id, canvas.canvas_id, title))}
                      onCancel={() => setPending(null)}
                    />
                  ) : null}
                  {isPending('rename', canvas.canvas_id) ? (
                    <OneField
                      label={`New name of ${canvas.canvas_id}`}
                      initial={canvas.title ?? ''}
                      action="Rename"
                      onSubmit={(title) =>
                        done(() => api.changeCanvas(project.project_id, canvas.canvas_id, { title }))
                      }
                      onCancel={() => setPending(null)}
                    />
                  ) : null}
                  {isPending('duplicate', canvas.canvas_id) ? (
                    <OneField
                      label={`Id of the copy of ${canvas.canvas_id}`}
                      initial={`${canvas.canvas_id}-copy`}
                      action="Duplicate"
                      option="Copy run results"
                      onSubmit={(copyId, withResults) =>
                        done(() => api.duplicateCanvas(project.project_id, canvas.canvas_id, copyId, withResults))
                      }
                      onCancel={() => setPending(null)}
                    />
                  ) : null}
                  {isPending('delete', canvas.canvas_id) ? (
                    <TypedConfirm
                      what={`canvas ${canvas.canvas_id}`}
                      id={canvas.canvas_id}
                      onConfirm={(typed) => done(() => api.deleteCanvas(project.project_id, canvas.canvas_id, typed))}
                      onCancel={() => setPending(null)}
                    />
                  ) : null}
                </li>
              ))}
            </ul>
            {owner ? (
              <NewCanvas
                projectId={project.project_id}
                onSubmit={(title, templateId) => act(() => api.createCanvas(project.project_id, title, templateId))}
              />
            ) : null}
          </section>
        );
      })}
      {me.kind === 'person' ? (
        <section className="project" aria-labelledby="email-title">
          <h2 id="email-title">Sign-in links by e-mail</h2>
          <p className="muted">
            {me.email
              ? `Sign-in links you ask for, or an owner makes you, go to ${me.email}.`
              : 'Give an address to get sign-in links by e-mail when your session ends.'}
          </p>
          <OneField
            label="Your e-mail"
            placeholder="you@studio.example"
            action="Save address"
            initial={me.email ?? ''}
            onSubmit={(email) => act(() => api.setMyEmail(email))}
          />
        </section>
      ) : null}
      {me.kind === 'person' ? <MySessions /> : null}
    </main>
  );
}

/** A short name for a browser from its User-Agent: enough to tell one's laptop from one's phone. */
function deviceName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'A browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return system ? `${browser} on ${system}` : browser;
}

/** Where the person is signed in, and signing out any of those places. */
function MySessions() {
  const [sessions, setSessions] = useState<SessionView[] | null>(null);
  const load = () =>
    api.mySessions().then(
      (answer) => setSessions(answer.sessions),
      () => setSessions(null),
    );
  useEffect(() => {
    void load();
  }, []);
  if (!sessions) return null;
  return (
    <section className="project" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      <ul>
        {sessions.map((session) => (
          <li key={session.session_id} data-session={session.session_id}>
            <div className="canvas-row">
              <span>
                {deviceName(session.device)}
                {session.current ? <span className="chip">this browser</span> : null}
              </span>
              <span className="meta">
                last seen {new Date(session.last_seen_at).toLocaleString()}
                <button
                  type="button"
                  className="button-small"
                  onClick={() =>
                    void api
                      .endMySession(session.session_id)
                      .then(() => (session.current ? window.location.assign('/') : load()))
                  }
                >
                  Sign out{session.current ? '' : ' there'}
                </button>
              </span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

interface Pending {
  kind: 'rename' | 'duplicate' | 'delete' | 'template';
  projectId: string;
  canvasId?: string;
}

/** One field and its button: a new canvas or project, a new name, the id of a copy. */
/** "New canvas": a title, and the template it starts from (blank, a built-in one, or one of the project's). */
function NewCanvas({
  projectId,
  onSubmit,
}: {
  projectId: string;
  onSubmit: (title: string, templateId: string | undefined) => Promise<unknown>;
}) {
  const [title, setTitle] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [templates, setTemplates] = useState<TemplateView[]>([]);
  // Read again when the list is opened: a template an owner saved since shows up.
  const load = () =>
    api.templates(projectId).then(
      (list) => setTemplates(list.templates),
      () => setTemplates([]),
    );
  useEffect(() => void load(), [projectId]);
  return (
    <form
      className="new-canvas"
      onSubmit={(event) => {
        event.preventDefault();
        const trimmed = title.trim();
        if (trimmed)
          void onSubmit(trimmed, templateId || undefined).then(() => {
            setTitle('');
            setTemplateId('');
          });
      }}
    >
      <label>
        New canvas{' '}
        <input
          type="text"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          placeholder="Opening sequence"
          required
        />
      </label>
      <label>
        from{' '}
        <Select
          label="from"
          value={templateId}
          onOpen={() => void load()}
          onChange={setTemplateId}
          options={[
            { value: '', label: 'a blank canvas' },
            ...templates.map((template) => ({
              value: template.template_id,
              label: template.kind === 'project' ? `${template.title} (this project)` : template.title,
              title: template.description,
            })),
          ]}
        />
      </label>
      <button type="submit">Create</button>
    </form>
  );
}

function OneField({
  label,
  action,
  onSubmit,
  onCancel,
  initial = '',
  placeholder,
  option,
}: {
  label: string;
  action: string;
  onSubmit: (value: string, optionChecked: boolean) => Promise<unknown>;
  onCancel?: () => void;
  initial?: string;
  placeholder?: string;
  /** A checkbox beside the field (e.g. "Copy run results"), off until ticked. */
  option?: string;
}) {
  const [value, setValue] = useState(initial);
  const [optionChecked, setOptionChecked] = useState(false);
  return (
    <form
      className="new-canvas"
      onSubmit={(event) => {
        event.preventDefault();
        const trimmed = value.trim();
        if (trimmed) void onSubmit(trimmed, optionChecked).then(() => setValue(''));
      }}
    >
      <label>
        {label}{' '}
        <input
          type="text"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder={placeholder}
          required
          autoFocus={onCancel !== undefined}
        />
      </label>
      {option ? (
        <label className="option">
          <input type="checkbox" checked={optionChecked} onChange={(event) => setOptionChecked(event.target.checked)} />{' '}
          {option}
        </label>
      ) : null}
      <button type="submit" className="button-small button-primary">
        {action}
      </button>
      {onCancel ? (
        <button type="button" className="button-small" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
    </form>
  );
}

/** Deleting asks for the id typed again: the button stays off until it matches. */
function TypedConfirm({
  what,
  id,
  onConfirm,
  onCancel,
}: {
  what: string;
  id: string;
  onConfirm: (typed: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [typed, setTyped] = useState('');
  return (
    <div className="typed-confirm" role="alertdialog" aria-label={`Delete ${what}`}>
      <p>
        Delete {what}? Everyone loses it at once and its running generations are cancelled. Type <strong>{id}</strong>{' '}
        to confirm.
      </p>
      <label>
        Type {id} <input type="text" value={typed} onChange={(event) => setTyped(event.target.value)} autoFocus />
      </label>
      <button
        type="button"
        className="button-small button-danger"
        disabled={typed !== id}
        onClick={() => void onConfirm(typed)}
      >
        Delete
      </button>
      <button type="button" className="button-small" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/**
 * The name the team sees (docs/ui.md, "Names"): a person whose only name is a sign-in id (the first owner, a single
 * sign-on subject) is asked for one on arrival; anyone changes theirs here later.
 */
function YourName({ me, onSaved }: { me: MeView; onSaved: () => void }) {
  const [open, setOpen] = useState(me.needs_name === true);
  const [name, setName] = useState(me.display_name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  if (!open)
    return (
      <p className="your-name">
        <button type="button" className="button-small" onClick={() => setOpen(true)}>
          Change the name your team sees
        </button>
      </p>
    );
  return (
    <form
      className="your-name notice notice-info"
      aria-label="Your name"
      onSubmit={(event) => {
        event.preventDefault();
        api.setMyName(name.trim()).then(
          () => {
            setOpen(false);
            setProblem(null);
            onSaved();
          },
          (error: unknown) => setProblem((error as Error).message),
        );
      }}
    >
      <label>
        {me.needs_name ? 'What should your team call you?' : 'The name your team sees'}{' '}
        <input
          value={name}
          maxLength={100}
          autoComplete="name"
          required
          onChange={(event) => setName(event.target.value)}
        />
      </label>{' '}
      <button type="submit" className="button-primary button-small" disabled={!name.trim()}>
        Save
      </button>{' '}
      <button type="button" className="button-small" onClick={() => setOpen(false)}>
        Later
      </button>
      {problem ? <span className="error-line"> {problem}</span> : null}
    </form>
  );
}

/**
 * The picture the team sees beside the person's name (docs/ui.md, "Names"): any picture file, which the server cuts to
 * a square without its metadata; removed, their initials show again.
 */
function YourPicture({ me, onSaved }: { me: MeView; onSaved: () => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = me.display_name ?? me.person?.subject ?? '';
  const act = (work: Promise<unknown>) => {
    setBusy(true);
    work.then(
      () => {
        setProblem(null);
        setBusy(false);
        onSaved();
      },
      (error: unknown) => {
        setProblem((error as Error).message);
        setBusy(false);
      },
    );
  };
  return (
    <div className="your-picture" role="group" aria-label="Your picture">
      <Avatar name={name} picture={me.picture_url} size={40} />
      <label className="file-button button-small">
        {me.picture_url ? 'Change your picture' : 'Add a picture of yourself'}
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
          className="visually-hidden"
          disabled={busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) act(api.setMyPicture(file));
          }}
        />
      </label>
      {me.picture_url ? (
        <button type="button" className="button-small" disabled={busy} onClick={() => act(api.removeMyPicture())}>
          Remove picture
        </button>
      ) : null}
      {busy ? <span role="status">Saving your picture…</span> : null}
      {problem ? (
        <span className="error-line" role="alert">
          {problem}
        </span>
      ) : null}
    </div>
  );
}
