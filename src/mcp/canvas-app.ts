import { existsSync, readFileSync } from 'node:fs';
import type {
  McpUiResourceMeta,
  McpUiToolMeta,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps';
import { MCP_APP_FILE } from '../shared/package-paths.js';
import type { ConnectorAccess } from '../oauth/authorization-server.js';

/**
 * The canvas as an MCP App (MCP Apps, `io.modelcontextprotocol/ui`): get_canvas names a `ui://` resource, and hosts
 * that render apps show it beside the tool's result: the canvas drawn with the web canvas's cards, read-only, with a
 * link to the full canvas. The page is web/app.html, built into one self-contained file (dist/mcp-app/app.html).
 * The wire names come from @modelcontextprotocol/ext-apps (types only: nothing of it runs in the server).
 */

export const CANVAS_APP_URI = 'ui://canvas-mcp/canvas.html';

const MIME_TYPE: typeof RESOURCE_MIME_TYPE = 'text/html;profile=mcp-app';
const LEGACY_URI_KEY: typeof RESOURCE_URI_META_KEY = 'ui/resourceUri';

/** The key of get_canvas results' `_meta` that holds the full web canvas's URL (the app's "Open the full canvas"). */
export const CANVAS_URL_META = 'canvas-mcp/canvasUrl';

/** get_canvas's `_meta` in tools/list: the current form and the older key hosts still read. */
export const CANVAS_APP_TOOL_META: { ui: McpUiToolMeta; [LEGACY_URI_KEY]: string } = {
  ui: { resourceUri: CANVAS_APP_URI },
  [LEGACY_URI_KEY]: CANVAS_APP_URI,
};

/** App-only tools (MCP Apps visibility): callable by the app through its host, never shown to the model. */
export const APP_ONLY_TOOL_META: { ui: McpUiToolMeta } = { ui: { visibility: ['app'] } };

/**
 * The key of get_canvas results' `_meta`, for an OAuth connection only, that tells the app what its grant allows
 * (`edit`: move, edit and delete through apply_canvas_changes; `run`: start and cancel runs). Absent: the app stays
 * read-only, as for any caller without the app-only tools.
 */
export const CANVAS_APP_ACCESS_META = 'canvas-mcp/appAccess';

export function appAccessOf(connector: ConnectorAccess): { edit: boolean; run: boolean } {
  return { edit: connector.scopes.has('canvas:write'), run: connector.scopes.has('runs:write') };
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>canvas-mcp canvas</title>
<p style="font:14px system-ui;margin:2rem">The canvas view is not built on this server: run <code>npm run build</code>.</p></html>`;

/**
 * The app's own content-security policy, as a meta element: whatever policy the host applies (or
 * fails to), the page fetches nothing and draws images and media from this server's origin only. Its script and
 * styles are inlined by the build, hence 'unsafe-inline' for those alone.
 */
export function appPolicy(origin: string): string {
  const media = origin ? origin : "'none'";
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `img-src ${media}`,
    `media-src ${media}`,
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

function withOwnPolicy(html: string, origin: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${appPolicy(origin)}">`;
  return html.replace(/<head>/i, `<head>${meta}`);
}

export interface CanvasApp {
  /** The resources/list entry. */
  listing(): Record<string, unknown>;
  /** The resources/read contents item. */
  contents(): Record<string, unknown>;
}

/**
 * `publicOrigin` is where images and media of results are served (read on use: the listen address is known only once
 * the server listens). The app reaches nothing else: no connection at all, no script or style from anywhere.
 */
export function createCanvasApp(publicOrigin: () => string): CanvasApp {
  let html: string | null = null;
  const ui = (): McpUiResourceMeta => {
    const origin = publicOrigin();
    return { csp: { connectDomains: [], resourceDomains: origin ? [origin] : [] }, prefersBorder: true };
  };
  return {
    listing: () => ({
      uri: CANVAS_APP_URI,
      name: 'canvas',
      title: 'Canvas',
      description:
        'The canvas get_canvas read, drawn as the web canvas draws it (read-only), with its run states and a link to the full canvas.',
      mimeType: MIME_TYPE,
      _meta: { ui: ui() },
    }),
    contents() {
      // Read once: the file changes only with a new build, which comes with a restart.
      html ??= existsSync(MCP_APP_FILE) ? readFileSync(MCP_APP_FILE, 'utf8') : NOT_BUILT;
      return {
        uri: CANVAS_APP_URI,
        mimeType: MIME_TYPE,
        text: withOwnPolicy(html, publicOrigin()),
        _meta: { ui: ui() },
      };
    },
  };
}
