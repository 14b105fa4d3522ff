import { App } from '@modelcontextprotocol/ext-apps';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import '../styles.css';
import { CanvasSnapshot } from '../../../src/contract/index.js';
import { createReadOnlyController, type ReadOnlyController } from '../model/read-only.js';
import { AppCanvas } from './AppCanvas.js';

/**
 * The canvas as an MCP App (the ui:// resource get_canvas names): the host hands it the tool's result over the Apps
 * bridge (@modelcontextprotocol/ext-apps) and it draws the canvas with the web canvas's cards, read-only, with a link
 * to the full canvas. It reaches nothing itself: images come from the URLs the result holds.
 */

/** Where the result says the full web canvas is (a _meta key of the get_canvas result). */
export const CANVAS_URL_META = 'canvas-mcp/canvasUrl';

type View = { kind: 'waiting' } | { kind: 'canvas'; controller: ReadOnlyController; url: string | null } | { kind: 'problem'; text: string };

function originOf(url: string | null): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

const app = new App({ name: 'canvas-mcp canvas', version: '1.0.0' }, {});

function Root() {
  const [view, setView] = useState<View>({ kind: 'waiting' });
  useEffect(() => {
    app.ontoolresult = (result) => {
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
      const url = typeof result._meta?.[CANVAS_URL_META] === 'string' ? (result._meta[CANVAS_URL_META] as string) : null;
      setView((current) => {
        if (current.kind === 'canvas') {
          current.controller.show(parsed.data);
          return { ...current, url };
        }
        return { kind: 'canvas', controller: createReadOnlyController(parsed.data), url };
      });
    };
    app.connect().catch((error: unknown) => setView({ kind: 'problem', text: `Not connected to a host: ${String(error)}` }));
  }, []);

  if (view.kind === 'waiting') return <main className="screen-message">Waiting for the canvas…</main>;
  if (view.kind === 'problem') return <main className="screen-message">{view.text}</main>;
  const url = view.url;
  return <AppCanvas controller={view.controller} onOpen={url ? () => void app.openLink({ url }) : null} mediaOrigin={originOf(url)} />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
