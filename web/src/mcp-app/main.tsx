import { App } from '@modelcontextprotocol/ext-apps';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import '../styles.css';
import { CanvasSnapshot } from '../../../src/contract/index.js';
import type { CanvasController } from '../model/canvas-state.js';
import { createCanvasController } from '../model/canvas-store.js';
import { createReadOnlyController, type ReadOnlyController } from '../model/read-only.js';
import { AppCanvas } from './AppCanvas.js';
import { hostTransport, largeCanvasNote, type AppAccess } from './host-transport.js';
import { registerViewTools } from './view-tools.js';

/**
 * The canvas as an MCP App (the ui:// resource get_canvas names): the host hands it the tool's result over the Apps
 * bridge (@modelcontextprotocol/ext-apps) and it draws the canvas with the web canvas's cards, with a link to the full
 * canvas. Read-only, unless the result says the connection may edit and the host relays tool calls: then the person
 * moves, edits, deletes and runs nodes here, through the host (web/src/mcp-app/host-transport.ts), and sees the
 * agent's writes as they land. It reaches nothing itself: images come from the URLs the result holds.
 */

/** Where the result says the full web canvas is (a _meta key of the get_canvas result). */
export const CANVAS_URL_META = 'canvas-mcp/canvasUrl';
/** What the connection's grant allows (a _meta key of get_canvas results through an OAuth connection). */
export const CANVAS_APP_ACCESS_META = 'canvas-mcp/appAccess';

type View =
  | { kind: 'waiting' }
  | { kind: 'canvas'; controller: ReadOnlyController; url: string | null }
  | { kind: 'live'; controller: CanvasController; url: string | null }
  | { kind: 'problem'; text: string };

function accessOf(meta: Record<string, unknown> | undefined): AppAccess | null {
  const access = meta?.[CANVAS_APP_ACCESS_META] as Partial<AppAccess> | undefined;
  if (!access || typeof access !== 'object') return null;
  return { edit: access.edit === true, run: access.run === true };
}

function originOf(url: string | null): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

const app = new App({ name: 'canvas-mcp canvas', version: '1.0.0' }, {});
// The view's own tools (get_selection, get_view, focus), declared before it connects so the host lists them at once.
registerViewTools(app);
/** The two-way view, once there is one: it lives as long as the page. */
let live: CanvasController | null = null;

function Root() {
  const [view, setView] = useState<View>({ kind: 'waiting' });
  useEffect(() => {
    app.ontoolresult = (result) => {
      // The live view reads the canvas itself; a later result of the model's get_canvas adds nothing to it.
      if (live) return;
      const structured = result.structuredContent as { error?: { message?: string } } | undefined;
      if (result.isError) {
        setView({ kind: 'problem', text: structured?.error?.message ?? 'The canvas could not be read.' });
        return;
      }
      const parsed = CanvasSnapshot.safeParse(result.structuredContent);
      if (!parsed.success) {
        setView({ kind: 'problem', text: 'This result is not a canvas this view can draw.' });
        return;
      }
      const large = largeCanvasNote(
        { projectId: parsed.data.project_id, canvasId: parsed.data.canvas_id },
        parsed.data.layout.nodes.length,
      );
      if (large && app.getHostCapabilities()?.updateModelContext)
        void app.updateModelContext({ content: [{ type: 'text', text: large }] }).catch(() => undefined);
      const url =
        typeof result._meta?.[CANVAS_URL_META] === 'string' ? (result._meta[CANVAS_URL_META] as string) : null;
      const access = accessOf(result._meta);
      if (access && (access.edit || access.run) && app.getHostCapabilities()?.serverTools) {
        const address = { projectId: parsed.data.project_id, canvasId: parsed.data.canvas_id };
        live = createCanvasController(address, { transport: hostTransport(app, address, access) });
        void live.load();
        setView({ kind: 'live', controller: live, url });
        return;
      }
      setView((current) => {
        if (current.kind === 'canvas') {
          current.controller.show(parsed.data);
          return { ...current, url };
        }
        return { kind: 'canvas', controller: createReadOnlyController(parsed.data), url };
      });
    };
    app
      .connect()
      .catch((error: unknown) => setView({ kind: 'problem', text: `Not connected to a host: ${String(error)}` }));
  }, []);

  if (view.kind === 'waiting') return <main className="screen-message">Waiting for the canvas…</main>;
  if (view.kind === 'problem') return <main className="screen-message">{view.text}</main>;
  const url = view.url;
  return (
    <AppCanvas
      controller={view.controller}
      onOpen={url ? () => void app.openLink({ url }) : null}
      mediaOrigin={originOf(url)}
      editing={view.kind === 'live'}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
