import type { CanvasNode, LayoutOperation, Screenplay } from '../../contract/index.js';

/**
 * Where a screenplay is kept (docs/storyboards.md, "The script"). A script node holds its screenplay whole while it
 * is small, as every reader expects. A long one (a feature's lines, or a season's) would pass a node's 512 KiB: it is
 * kept whole as an asset the node names (`fullScreenplayUrl`), and the node keeps what the board, the page and an
 * agent's first read need: the scenes' headings, the cast, and which scene each shot shows with its flag.
 */

/** A screenplay up to this size, serialized, stays whole in its node: room beside it for the node's other data. */
export const SCREENPLAY_INLINE_BYTES = 256 * 1024;

export function fitsInNode(screenplay: Screenplay): boolean {
  return Buffer.byteLength(JSON.stringify(screenplay), 'utf8') <= SCREENPLAY_INLINE_BYTES;
}

/** The node's form of a screenplay kept whole at `url`: scenes without lines, bindings without line ids. */
export function screenplayForNode(full: Screenplay, url: string): Screenplay {
  return {
    ...full,
    fullScreenplayUrl: url,
    scenes: full.scenes.map((scene) => ({ ...scene, lines: [] })),
    bindings: Object.fromEntries(
      Object.entries(full.bindings).map(([shotId, binding]) => [
        shotId,
        { sceneId: binding.sceneId, ...(binding.flag ? { flag: binding.flag } : {}) },
      ]),
    ),
  };
}

/** The import's operations with the script node's screenplay replaced by the form it is kept in. */
export function withScreenplayInNode(
  operations: readonly LayoutOperation[],
  scriptNodeId: string,
  screenplay: Screenplay,
): LayoutOperation[] {
  return operations.map((operation) => {
    if (operation.op === 'create_node' && operation.node.id === scriptNodeId)
      return {
        ...operation,
        // The same scriptNode with another scriptResult (free-form JSON in the contract): still a scriptNode.
        node: { ...operation.node, data: { ...operation.node.data, scriptResult: screenplay } } as CanvasNode,
      };
    if (operation.op === 'update_node' && operation.node_id === scriptNodeId && operation.set.data)
      return { ...operation, set: { ...operation.set, data: { ...operation.set.data, scriptResult: screenplay } } };
    return operation;
  });
}

/**
 * A board's shots take their action and dialogue from their scenes' lines; a long script's would pass a node's 512 KiB
 * (700 scenes of a page each came to 2.3 MB). Above this, each shot's action and dialogue are shortened alike to an
 * excerpt ending in "…": the whole lines stay bound in the screenplay, and the import says how many were shortened.
 */
export const BOARD_WORDS_BUDGET_BYTES = 400 * 1024;
const SHORTEST_EXCERPT = 80;
const WORD_FIELDS = ['action', 'dialogue'] as const;

export function wordsWithinBoard<Shot extends Record<string, unknown>>(
  shots: readonly Shot[],
  budgetBytes = BOARD_WORDS_BUDGET_BYTES,
): { shots: Shot[]; shortened: number } {
  const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytesOf(shots) <= budgetBytes) return { shots: [...shots], shortened: 0 };
  const words = shots.flatMap((shot) =>
    WORD_FIELDS.map((field) => shot[field]).filter((text) => typeof text === 'string'),
  );
  const wordBytes = words.reduce((sum, text) => sum + bytesOf(text), 0);
  let cap = Math.max(
    SHORTEST_EXCERPT,
    Math.floor((budgetBytes - (bytesOf(shots) - wordBytes)) / Math.max(1, words.length)),
  );
  for (;;) {
    let shortened = 0;
    const fitted = shots.map((shot) => {
      let changed = false;
      const next: Record<string, unknown> = { ...shot };
      for (const field of WORD_FIELDS) {
        const text = shot[field];
        if (typeof text !== 'string' || text.length <= cap) continue;
        next[field] = `${[...text].slice(0, cap - 1).join('')}…`;
        changed = true;
      }
      if (changed) shortened += 1;
      return next as Shot;
    });
    // Characters are not bytes: a script in Japanese may need a second, shorter pass.
    if (bytesOf(fitted) <= budgetBytes || cap === SHORTEST_EXCERPT) return { shots: fitted, shortened };
    cap = Math.max(SHORTEST_EXCERPT, Math.floor(cap / 2));
  }
}
