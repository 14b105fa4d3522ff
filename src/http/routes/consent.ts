import type { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { z } from 'zod';
import { CanvasId, ProjectId } from '../../contract/index.js';
import { htmlPage } from './auth.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { SESSION_COOKIE } from '../session-auth.js';
import { apiRoute, handle } from '../route-declaration.js';
import { page } from '../route-parameters.js';
import { CanvasError } from '../../shared/errors.js';
import type { Actor, MemberRole } from '../../store/records.js';
import type { SessionTimes } from '../../store/session-store.js';
import type { Store } from '../../store/store.js';
import { INTERACTION_PATH, type AuthorizationServer, type InteractionView } from '../../oauth/authorization-server.js';
import {
  ACCESS_LEVELS,
  accountIdOf,
  offeredLevels,
  type AccessLevel,
  type ConnectorGrants,
} from '../../oauth/connector-grants.js';

/**
 * The consent page of an OAuth client (docs/security.md, "Connectors"): which client, which canvas of the person's
 * projects, read only or "may edit" (or also start paid runs, within a spending limit), then Allow or Deny. A person
 * not signed in here signs in first with a sign-in link, and comes back. Plain HTML, no script; its form posts only
 * from this server's own page (the Origin is checked), and its browser may follow the answer only to this server and to
 * the client's registered redirect address.
 */

export interface ConsentRouteOptions {
  store: Store;
  times: SessionTimes;
  publicOrigin: () => string;
  /** The authorization server and the grants, once the server listens (null before, and in gateway mode). */
  connectors: () => { server: AuthorizationServer; grants: ConnectorGrants } | null;
}

const ACCESS_TEXT: Record<AccessLevel, string> = {
  read: 'Read the canvas only',
  edit: 'Read and edit the canvas (create, change and delete nodes and connections)',
  runs: 'Read, edit, and start paid runs',
};

const interactionParams = z.object({ uid: z.string() });

const CONSENT_PAGE = apiRoute({
  method: 'get',
  path: `${INTERACTION_PATH}/:uid`,
  operationId: 'connectorConsentPage',
  summary: 'The consent page of an OAuth client: which canvas, what it may do (docs/security.md, "Connectors").',
  tag: 'auth',
  auth: 'none',
  params: interactionParams,
  responses: {
    200: page('The consent page, or the sign-in page for a person not signed in.'),
    410: page('The request expired: start again from the client.'),
  },
});

const CONSENT = apiRoute({
  method: 'post',
  path: `${INTERACTION_PATH}/:uid`,
  operationId: 'connectorConsent',
  summary: "The person's answer: Allow (a canvas and an access level) or Deny. From this server's own page only.",
  tag: 'auth',
  auth: 'none',
  params: interactionParams,
  form: z.object({
    decision: z.enum(['allow', 'deny']),
    canvas: z.string().optional().meta({ description: 'PROJECT/CANVAS.' }),
    access: z.enum(ACCESS_LEVELS).optional(),
    spend_limit: z
      .string()
      .optional()
      .meta({ description: 'Credits the runs it starts may cost in all (empty: the project budget only).' }),
  }),
  responses: {
    303: {
      description: 'Answered: the browser goes back to the client with a code (or access_denied).',
      headers: { location: 'The authorization endpoint, then the client.' },
    },
    400: page('The answer is incomplete: the page again, saying what is missing.'),
    403: page("Not from this server's page, or beyond the person's rights (a viewer allowing edits)."),
  },
});

export const CONSENT_ROUTES = [CONSENT_PAGE, CONSENT];

interface CanvasOption {
  projectId: string;
  canvasId: string;
  role: MemberRole;
}

async function canvasesOf(store: Store, person: Actor): Promise<CanvasOption[]> {
  const options: CanvasOption[] = [];
  for (const membership of await store.directory.membershipsOf(person)) {
    for (const canvas of await store.directory.canvases(membership.projectId))
      options.push({ projectId: membership.projectId, canvasId: canvas.canvasId, role: membership.role });
  }
  return options;
}

function headersFor(c: BackendContext, redirectOrigin: string | null): void {
  c.header('cache-control', 'no-store');
  c.header('referrer-policy', 'same-origin');
  c.header('x-frame-options', 'DENY');
  // The answer's redirects end at the client's address: a form's navigation may go there, and nowhere else.
  const formAction = ["'self'", ...(redirectOrigin ? [redirectOrigin] : [])].join(' ');
  c.header(
    'content-security-policy',
    `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
}

function clientLabel(view: InteractionView): string {
  return view.clientName ?? view.clientId;
}

function expired() {
  return htmlPage(
    'Connection request expired',
    html`<h1>This connection request has expired</h1>
      <p>Start connecting again from the app you were adding canvas-mcp to.</p>`,
  );
}

function signInFirst(view: InteractionView, uid: string) {
  return htmlPage(
    'Sign in to connect',
    html`<h1>Sign in to connect ${clientLabel(view)}</h1>
      <p><strong>${clientLabel(view)}</strong> asks to use your canvases. Sign in first: paste the sign-in link you
        were given (or open it in this browser, then reload this page).</p>
      <form method="post" action="/auth/login">
        <input type="hidden" name="next" value="${INTERACTION_PATH}/${uid}" />
        <label for="link">Your sign-in link</label>
        <input id="link" type="text" name="link" size="60" autocomplete="off" required />
        <p><button type="submit">Sign in</button></p>
      </form>
      <p>No link? A project owner or the person running this server makes one with
        <code>npm run -s cli -- admin login-link --issuer … --subject …</code>.</p>`,
  );
}

function consentPage(view: InteractionView, person: Actor, canvases: CanvasOption[], problem: string | null) {
  const levels = offeredLevels(view.requestedScopes);
  const defaultLevel = levels.includes('edit') ? 'edit' : levels[0]!;
  return htmlPage(
    'Connect an app',
    html`<h1>Connect ${clientLabel(view)} to a canvas</h1>
      <p>Signed in as <strong>${person.subject}</strong>. <strong>${clientLabel(view)}</strong>
        (<code>${view.clientId}</code>) asks to work on one of your canvases. It will act as an agent there: what it
        writes shows as its own, live, in history and in the feed, and you can end this connection from the canvas's
        "Connect an agent" panel at any time.</p>
      ${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
      ${
        canvases.length === 0
          ? html`<p class="note">You are a member of no project with a canvas yet.</p>
            <form method="post"><button type="submit" name="decision" value="deny">Cancel</button></form>`
          : html`<form method="post">
            <label for="canvas">Canvas</label>
            <select id="canvas" name="canvas">
              ${canvases.map(
                (option) =>
                  html`<option value="${option.projectId}/${option.canvasId}">${option.projectId} / ${option.canvasId} (${option.role})</option>`,
              )}
            </select>
            <fieldset>
              <legend>What it may do</legend>
              ${levels.map(
                (level) =>
                  html`<label><input type="radio" name="access" value="${level}" ${level === defaultLevel ? 'checked' : ''} /> ${ACCESS_TEXT[level]}</label>`,
              )}
              ${
                levels.includes('runs')
                  ? html`<label for="spend_limit">Spending limit for the runs it starts, in credits (empty: the project's budget only)</label>
                    <input id="spend_limit" type="number" name="spend_limit" min="0" step="1" />`
                  : ''
              }
            </fieldset>
            <p>Editing needs you to be an editor or owner of the canvas's project; a viewer can allow reading only.
              ${view.redirectUri ? html`Your answer goes back to <code>${view.redirectUri}</code>: if that is not the app you are adding, deny.` : ''}</p>
            <p>
              <button type="submit" name="decision" value="allow">Allow</button>
              <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
            </p>
          </form>`
      }`,
  );
}

export function registerConsentRoutes(app: Hono<BackendHttpEnv>, options: ConsentRouteOptions): void {
  const personOf = async (c: BackendContext): Promise<Actor | null> => {
    const secret = getCookie(c, SESSION_COOKIE);
    return secret
      ? ((await options.store.sessions.findSession(secret, options.times, c.req.header('user-agent')))?.person ?? null)
      : null;
  };
  const nodeOf = (c: BackendContext) => {
    const { incoming, outgoing } = c.env;
    if (!incoming || !outgoing)
      throw new CanvasError('internal', 'The consent page needs the Node request and response.');
    return { incoming, outgoing };
  };
  const redirectOrigin = (uri: string | null) => {
    if (!uri) return null;
    try {
      const url = new URL(uri);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : `${url.protocol}`;
    } catch {
      return null;
    }
  };

  handle(app, CONSENT_PAGE, async (c) => {
    const connectors = options.connectors();
    if (!connectors) throw new CanvasError('unavailable', 'OAuth is not available on this server yet.');
    const { incoming, outgoing } = nodeOf(c);
    const view = await connectors.server.interaction(incoming, outgoing);
    // The policy of the page that holds the form is the one its answer's redirects are checked against.
    headersFor(c, redirectOrigin(view?.redirectUri ?? null));
    if (!view || view.uid !== c.req.param('uid')) return c.html(expired(), 410);
    const person = await personOf(c);
    if (!person) return c.html(signInFirst(view, view.uid));
    return c.html(consentPage(view, person, await canvasesOf(options.store, person), null));
  });

  handle(app, CONSENT, async (c) => {
    const connectors = options.connectors();
    if (!connectors) throw new CanvasError('unavailable', 'OAuth is not available on this server yet.');
    const { incoming, outgoing } = nodeOf(c);
    const view = await connectors.server.interaction(incoming, outgoing);
    if (!view || view.uid !== c.req.param('uid')) {
      headersFor(c, null);
      return c.html(expired(), 410);
    }
    headersFor(c, redirectOrigin(view.redirectUri));
    if (c.req.header('origin') !== options.publicOrigin()) {
      return c.html(
        htmlPage(
          'Not allowed',
          html`<h1>Answer on this server's own page</h1><p>Open the connection request again.</p>`,
        ),
        403,
      );
    }
    const person = await personOf(c);
    if (!person) return c.html(signInFirst(view, view.uid), 401);
    const form = CONSENT.form.safeParse(await c.req.parseBody());
    if (!form.success)
      return c.html(consentPage(view, person, await canvasesOf(options.store, person), 'Choose Allow or Deny.'), 400);
    if (form.data.decision === 'deny') {
      const to = await connectors.server.finishInteraction(incoming, outgoing, {
        error: 'access_denied',
        error_description: 'The person declined the connection.',
      });
      return c.redirect(to, 303);
    }
    try {
      const [projectId = '', canvasId = ''] = (form.data.canvas ?? '').split('/');
      const spend = form.data.spend_limit?.trim() ?? '';
      if (spend !== '' && !/^\d{1,9}$/.test(spend))
        throw new CanvasError('invalid_arguments', 'The spending limit is a whole number of credits.');
      const grantId = await connectors.grants.approve(person, view, {
        projectId: ProjectId.parse(projectId),
        canvasId: CanvasId.parse(canvasId),
        access: form.data.access ?? 'read',
        spendLimit: spend === '' ? null : Number(spend),
      });
      const to = await connectors.server.finishInteraction(incoming, outgoing, {
        login: { accountId: accountIdOf(person), remember: false },
        consent: { grantId },
      });
      return c.redirect(to, 303);
    } catch (error) {
      const message =
        error instanceof CanvasError
          ? error.message
          : error instanceof z.ZodError
            ? 'Choose one of the canvases listed.'
            : null;
      if (message === null) throw error;
      return c.html(
        consentPage(view, person, await canvasesOf(options.store, person), message),
        error instanceof CanvasError && error.code === 'forbidden' ? 403 : 400,
      );
    }
  });
}
