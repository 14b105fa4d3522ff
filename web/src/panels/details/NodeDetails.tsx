import { useEffect } from 'react';
import { useCanvas, useCanvasState, useEditable } from '../../ui/canvas-context.js';
import { EditableText } from '../../cards/parts.js';
import { typeLabel } from '../../model/palette.js';
import { RunStatusBadge } from '../../cards/run-controls.js';
import { recordOf, text } from '../../model/values.js';
import { deleteItems, patchData } from '../../model/intents.js';
import { authorLabel } from '../../model/layout.js';
import { markFirstStep } from '../../model/first-steps.js';
import { FirstSteps } from './FirstSteps.js';
import { ResultVersions } from './ResultVersions.js';
import { ContentCredentials } from './ContentCredentials.js';
import { DataForm } from './DataForm.js';

/** Everything about the selected node: its place, its data, who changed it last and its latest run. */
export function NodeDetails({ nodeId }: { nodeId: string | null }) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const node = useCanvasState((state) => state.layout.nodes.find((candidate) => candidate.id === nodeId));
  const runState = useCanvasState((state) => (nodeId ? state.states[nodeId] : undefined));
  const lastAuthor = useCanvasState((state) => (nodeId ? state.lastAuthor[nodeId] : undefined));
  const shown = node?.id;
  useEffect(() => {
    if (shown) markFirstStep('select');
  }, [shown]);
  if (!nodeId || !node) return <FirstSteps />;
  const data = recordOf(node.data);
  const authors = () => controller.store.getState().lastAuthor;
  const rename = (next: string) =>
    void controller.submit(patchData(node.id, { displayName: next }, 'Rename', authors, next));
  return (
    <div className="details">
      <h2>
        <EditableText
          multiline={false}
          label="display name"
          value={text(data.displayName) ?? ''}
          placeholder={node.id}
          onSave={rename}
        />
      </h2>
      <dl className="facts">
        <dt>Type</dt>
        <dd>
          {typeLabel(node.type)} <code>{node.type}</code>
        </dd>
        <dt>Id</dt>
        <dd>
          <code>{node.id}</code>
        </dd>
        <dt>Position</dt>
        <dd>
          {Math.round(node.position.x)}, {Math.round(node.position.y)}
          {node.width && node.height ? ` · ${Math.round(node.width)} × ${Math.round(node.height)}` : ''}
        </dd>
        {node.parentId ? (
          <>
            <dt>In group</dt>
            <dd>
              <code>{node.parentId}</code>
            </dd>
          </>
        ) : null}
        {lastAuthor !== undefined ? (
          <>
            <dt>Last changed by</dt>
            <dd>{authorLabel(lastAuthor)}</dd>
          </>
        ) : null}
        {runState ? (
          <>
            <dt>Latest run</dt>
            <dd>
              <RunStatusBadge state={runState} /> <code>{runState.externalRunId}</code>
              {runState.outputs.map((output) => (
                <div key={output.asset_id}>
                  <a href={output.url} target="_blank" rel="noreferrer">
                    {output.kind} ({output.mime_type})
                  </a>
                  {['image', 'audio', 'video'].includes(output.kind) ? <ContentCredentials url={output.url} /> : null}
                </div>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
      <ResultVersions
        nodeId={node.id}
        refreshKey={`${runState?.externalRunId ?? ''}:${runState?.lastRunStatus ?? ''}:${text(data.externalRunId) ?? ''}`}
      />
      <h3>Data</h3>
      <DataForm node={node} />
      <details className="data-advanced">
        <summary>Advanced</summary>
        {/* Read-only, and a region the keyboard focuses and scrolls (long data is wider and taller than the panel). */}
        <pre className="data-json" tabIndex={0} role="region" aria-label={`Data of ${node.id} as JSON`}>
          {JSON.stringify(node.data, null, 2)}
        </pre>
      </details>
      {editable ? (
        <button
          type="button"
          className="button-danger"
          onClick={() => void controller.submit(deleteItems([node.id], [], controller.store.getState().layout))}
        >
          Delete this node
        </button>
      ) : null}
    </div>
  );
}
