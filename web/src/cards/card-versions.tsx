import { useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { NodeRuntimeState, ResultVersionList, RunOutput } from '../../../src/contract/index.js';
import { useCanvas, useEditable } from '../ui/canvas-context.js';

/**
 * Result versions on the card itself: "Versions" opens a stepper under the result; Previous and Next show
 * each version's result on the card in place of the current one, and "Use this" makes the one shown current (a layout
 * write, like the details panel's "Use this version", where two can also be compared side by side).
 */
export function useCardVersions(
  nodeId: string,
  state: NodeRuntimeState | undefined,
  pickedRunId: string | undefined,
): {
  /** The outputs of the version being looked at, when it is not the current one. */
  browsing: RunOutput[] | null;
  controls: ReactNode;
} {
  const { controller } = useCanvas();
  const editable = useEditable();
  const knownCount = useStore(controller.store, (current) => current.versionCounts[nodeId] ?? 0);
  const [list, setList] = useState<ResultVersionList | null>(null);
  const [index, setIndex] = useState<number | null>(null);
  const [opening, setOpening] = useState<{ error: string | null } | null>(null);
  const refreshKey = `${state?.externalRunId ?? ''}:${state?.lastRunStatus ?? ''}:${pickedRunId ?? ''}`;

  useEffect(() => {
    // A run ended or a pick landed while the stepper was open: read the versions again, back on the current one.
    setList(null);
    setIndex(null);
    setOpening(null);
  }, [refreshKey]);

  // Earlier versions stay reachable while a new run goes on or after one failed.
  const hasVersions = knownCount > 0 || state?.lastRunStatus === 'succeeded' || pickedRunId !== undefined;
  if (!hasVersions || !controller.listsVersions) return { browsing: null, controls: null };
  const open = async () => {
    setOpening({ error: null });
    try {
      const next = await controller.versions(nodeId);
      if (!next || next.versions.length === 0) {
        setOpening({ error: 'this node has no versions yet' });
        return;
      }
      setOpening(null);
      setList(next);
      setIndex(
        Math.max(
          next.versions.findIndex((version) => version.current),
          0,
        ),
      );
    } catch (error) {
      setOpening({ error: (error as Error).message });
    }
  };
  if (!list || index === null) {
    return {
      browsing: null,
      controls: (
        <span className="card-versions nodrag">
          <button
            type="button"
            className="button-small card-versions-open"
            disabled={opening !== null && opening.error === null}
            onClick={() => void open()}
          >
            {opening !== null && opening.error === null ? 'Loading versions…' : 'Versions'}
          </button>
          {opening?.error ? <span className="error-line">Versions could not be read: {opening.error}</span> : null}
        </span>
      ),
    };
  }
  const version = list.versions[index]!;
  const count = list.versions.length;
  const step = (by: number) => setIndex(Math.min(Math.max(index + by, 0), count - 1));
  return {
    browsing: version.current ? null : version.outputs,
    controls: (
      <div className="card-versions nodrag" role="group" aria-label="Result versions">
        <button
          type="button"
          className="button-small"
          disabled={index === 0}
          onClick={() => step(-1)}
          aria-label="Previous version"
        >
          ‹
        </button>
        <span>
          Version {version.version} of {count}
          {version.current ? ' (current)' : ''}
        </span>
        <button
          type="button"
          className="button-small"
          disabled={index === count - 1}
          onClick={() => step(1)}
          aria-label="Next version"
        >
          ›
        </button>
        {version.current ? null : (
          <button
            type="button"
            className="button-small button-primary"
            disabled={!editable}
            onClick={() => void controller.pickVersion(nodeId, version.run_id)}
          >
            Use this
          </button>
        )}
        <button
          type="button"
          className="button-small"
          onClick={() => {
            setList(null);
            setIndex(null);
          }}
        >
          Close
        </button>
      </div>
    ),
  };
}
