import { useEffect, useState } from 'react';
import { thumbnailUrl } from '../../cards/media-url.js';
import type { ResultVersion, ResultVersionList } from '../../../../src/contract/index.js';
import { useCanvas, useEditable } from '../../ui/canvas-context.js';
import { credits } from '../../model/values.js';

/**
 * A node's result versions in its details (docs/runs.md, "Result versions"): step through them, see who made each and
 * what it cost, compare one with the current result side by side, and make it current ("Use this version": a layout
 * write that history, the feed and revert know like any other). `refreshKey` changes when a run ends or a pick lands.
 */
export function ResultVersions({ nodeId, refreshKey }: { nodeId: string; refreshKey: string }) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const [list, setList] = useState<ResultVersionList | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const [compare, setCompare] = useState(false);

  useEffect(() => {
    let live = true;
    controller
      .versions(nodeId)
      .then((next) => {
        if (!live) return;
        setList(next);
        setShown(null);
      })
      .catch(() => live && setList(null));
    return () => {
      live = false;
    };
  }, [controller, nodeId, refreshKey]);

  if (!list || list.versions.length === 0) return null;
  const currentIndex = Math.max(
    list.versions.findIndex((version) => version.current),
    0,
  );
  const index = shown ?? currentIndex;
  const version = list.versions[index]!;
  const current = list.versions[currentIndex]!;
  const count = list.versions.length;
  return (
    <section className="versions" aria-labelledby={`versions-${nodeId}`}>
      <h3 id={`versions-${nodeId}`}>Versions</h3>
      <div className="version-stepper">
        <button type="button" className="button-small" disabled={index === 0} onClick={() => setShown(index - 1)}>
          Previous
        </button>
        <span aria-live="polite">
          Version {version.version} of {count}
          {version.current ? (list.picked ? ' (current, picked)' : ' (current, the latest)') : ''}
        </span>
        <button
          type="button"
          className="button-small"
          disabled={index === count - 1}
          onClick={() => setShown(index + 1)}
        >
          Next
        </button>
      </div>
      {compare && !version.current ? (
        <div className="version-compare">
          <figure>
            <VersionOutputs version={current} />
            <figcaption>Current: version {current.version}</figcaption>
          </figure>
          <figure>
            <VersionOutputs version={version} />
            <figcaption>Version {version.version}</figcaption>
          </figure>
        </div>
      ) : (
        <VersionOutputs version={version} />
      )}
      <p className="muted">
        {version.finished_at ? new Date(version.finished_at).toLocaleString() : 'unfinished'}, by{' '}
        {version.triggered_by.name ?? version.triggered_by.kind}
        {version.cost !== null ? `, ${credits(version.cost)}` : ''}
      </p>
      {!version.current ? (
        <div className="version-actions">
          <label className="option">
            <input type="checkbox" checked={compare} onChange={(event) => setCompare(event.target.checked)} /> Compare
            with the current one
          </label>
          {editable ? (
            <button
              type="button"
              className="button-small button-primary"
              onClick={() => void controller.pickVersion(nodeId, version.run_id)}
            >
              Use this version
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function VersionOutputs({ version }: { version: ResultVersion }) {
  return (
    <div className="version-outputs">
      {version.outputs.map((output) => {
        const label = `${output.kind} of version ${version.version}`;
        if (output.kind === 'image')
          return <img key={output.asset_id} src={thumbnailUrl(output.url)} alt={label} className="thumb" />;
        if (output.kind === 'audio')
          return <audio key={output.asset_id} src={output.url} controls aria-label={label} />;
        if (output.kind === 'video')
          return <video key={output.asset_id} src={output.url} controls aria-label={label} className="thumb" />;
        return (
          <a key={output.asset_id} href={output.url} target="_blank" rel="noreferrer">
            {label} ({output.mime_type})
          </a>
        );
      })}
    </div>
  );
}
