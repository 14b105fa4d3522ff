import {
  dataFieldOf,
  MAX_RUN_REFERENCES,
  mentionedElements,
  shotElements,
  type CanvasNode,
  type RunReferenceInput,
} from '../contract/index.js';
import type { StoredElement } from '../store/element-store.js';
import type { Store } from '../store/store.js';

/**
 * What a generation is given from the project's elements (docs/storyboards.md, "Elements"): the
 * elements its prompt mentions (`@Mara`) and those of the shot it makes the picture for (a board's frame whose
 * `sourceNodeId` is this node: its cast, location and mentions), with their reference pictures in order, at most
 * MAX_RUN_REFERENCES. Decided when the run is submitted and kept in its input, so its record says what it was given.
 */

export async function runReferences(
  store: Store,
  projectId: string,
  canvasId: string,
  node: CanvasNode,
): Promise<RunReferenceInput | null> {
  const prompt = dataFieldOf(node, 'prompt');
  const elements = await store.elements.list(projectId);
  if (elements.length === 0) return null;
  const linked = new Set<StoredElement>(typeof prompt === 'string' ? mentionedElements(prompt, elements) : []);
  for (const board of await store.layout.nodesOfType(projectId, canvasId, 'storyboardNode')) {
    if (board.type !== 'storyboardNode') continue;
    for (const shot of board.data.frames)
      if (shot.sourceNodeId === node.id) for (const element of shotElements(shot, elements)) linked.add(element);
  }
  if (linked.size === 0) return null;
  const chosen = elements.filter((element) => linked.has(element));
  const assetIds: string[] = [];
  for (const element of chosen)
    for (const assetId of element.referenceAssets)
      if (assetIds.length < MAX_RUN_REFERENCES && !assetIds.includes(assetId)) assetIds.push(assetId);
  return {
    elements: chosen.map((element) => ({ element_id: element.id, name: element.name, kind: element.kind })),
    asset_ids: assetIds,
  };
}
