import { useReactFlow, useStore as useFlowStore, ViewportPortal } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import type { PresenceEntry } from '../../../src/contract/index.js';
import { useCanvas, useCanvasState } from '../ui/canvas-context.js';
import type { FlowNode } from '../cards/card-data.js';
import { presenceReporter, type PresenceReporter } from '../model/presence-report.js';
import { Avatar } from '../ui/avatar.js';

/**
 * Who else is on the canvas (docs/ui.md, "Who else is here"), drawn on it: each person's cursor with their name and an
 * outline round what they selected, in their colour; each agent as a marker on the node it touched last. And the
 * person's own place, reported: their selection and cursor (in canvas coordinates, so zoom and pan differ freely),
 * through the one reporter every page uses (model/presence-report.ts).
 */

function NodeBox({
  nodeId,
  color,
  label,
  className,
}: {
  nodeId: string;
  color: string;
  label: string;
  className: string;
}) {
  const node = useFlowStore((state) => state.nodeLookup.get(nodeId));
  if (!node) return null;
  const { x, y } = node.internals.positionAbsolute;
  const width = node.measured.width ?? node.width ?? 0;
  const height = node.measured.height ?? node.height ?? 0;
  return (
    <div
      className={className}
      style={{ transform: `translate(${x}px, ${y}px)`, width, height, ['--presence-color' as string]: color }}
    >
      <span className="presence-label">{label}</span>
    </div>
  );
}

function Others({ entries }: { entries: PresenceEntry[] }) {
  return (
    <ViewportPortal>
      {entries.map((entry) =>
        entry.kind === 'agent' ? (
          entry.node_id ? (
            <NodeBox
              key={entry.key}
              nodeId={entry.node_id}
              color={entry.color}
              label={entry.name}
              className="presence-agent"
            />
          ) : null
        ) : (
          <div key={entry.key} data-presence={entry.name}>
            {entry.selection.map((nodeId) => (
              <NodeBox
                key={nodeId}
                nodeId={nodeId}
                color={entry.color}
                label={entry.name}
                className="presence-selection"
              />
            ))}
            {entry.cursor ? (
              <div
                className="presence-cursor"
                style={{
                  transform: `translate(${entry.cursor.x}px, ${entry.cursor.y}px)`,
                  ['--presence-color' as string]: entry.color,
                }}
              >
                <svg width="14" height="18" viewBox="0 0 14 18" aria-hidden="true">
                  <path d="M0 0 L14 11 L7 11 L4 18 Z" fill="currentColor" />
                </svg>
                <span className="presence-label">{entry.name}</span>
              </div>
            ) : null}
          </div>
        ),
      )}
    </ViewportPortal>
  );
}

/** Reports the person's selection and cursor; renders the others. Inside the ReactFlow element. */
export function PresenceLayer({ pane }: { pane: React.RefObject<HTMLElement | null> }) {
  const { controller } = useCanvas();
  const entries = useCanvasState((state) => state.presence);
  const status = useCanvasState((state) => state.status);
  const flow = useReactFlow<FlowNode>();
  const selection = useFlowStore((state) =>
    [...state.nodeLookup.values()]
      .filter((node) => node.selected)
      .map((node) => node.id)
      .join('\u0000'),
  );
  const selected = useRef<string[]>([]);
  const reporter = useRef<PresenceReporter | null>(null);

  useEffect(() => {
    if (status !== 'ready') return;
    const reports = presenceReporter(controller, { selection: selected.current, cursor: null });
    reporter.current = reports;
    const element = pane.current;
    const onMove = (event: PointerEvent) => {
      const point = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      reports.update({ cursor: { x: Math.round(point.x), y: Math.round(point.y) } });
    };
    const onLeave = () => reports.update({ cursor: null });
    element?.addEventListener('pointermove', onMove);
    element?.addEventListener('pointerleave', onLeave);
    return () => {
      element?.removeEventListener('pointermove', onMove);
      element?.removeEventListener('pointerleave', onLeave);
      reporter.current = null;
      reports.stop();
    };
  }, [controller, flow, pane, status]);

  useEffect(() => {
    selected.current = selection ? selection.split('\u0000') : [];
    reporter.current?.update({ selection: selected.current }, true);
  }, [selection]);

  return <Others entries={entries} />;
}

/** The top bar's list of who is here. */
export function WhoIsHere() {
  const entries = useCanvasState((state) => state.presence);
  if (entries.length === 0) return null;
  return (
    <ul className="who-is-here" aria-label="Also on this canvas">
      {entries.map((entry) => (
        <li
          key={entry.key}
          className="presence-chip"
          data-kind={entry.kind}
          style={{ ['--presence-color' as string]: entry.color }}
          title={entry.kind === 'agent' ? 'An agent working here' : 'Also on this canvas'}
        >
          {entry.kind === 'agent' ? (
            <span className="presence-kind">agent</span>
          ) : (
            <Avatar name={entry.name} picture={entry.picture_url} color={entry.color} size={18} />
          )}
          {entry.name}
        </li>
      ))}
    </ul>
  );
}
