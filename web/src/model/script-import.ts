import type { CanvasNode, ScriptImportReceipt, Screenplay } from '../../../src/contract/index.js';
import type { Layout } from './layout.js';

/**
 * The page's side of a script import (docs/storyboards.md, "The script"): which script node a board's
 * script lives in (a revised script goes into the same node, so the server reports what changed), the flags on its
 * shots, and the import's receipt in words.
 */

/** The script node whose screenplay binds this board's shots, if any. */
export function scriptOfBoard(layout: Layout, boardId: string): { node: CanvasNode; screenplay: Screenplay } | null {
  for (const node of layout.nodes) {
    if (node.type !== 'scriptNode') continue;
    // The contract keeps a script's result as free-form JSON: the format check below is what tells a screenplay.
    const screenplay = node.data.scriptResult as Screenplay | undefined;
    if (screenplay?.format === 'canvas-mcp.screenplay.v1' && screenplay.boardNodeId === boardId)
      return { node, screenplay };
  }
  return null;
}

/** Why each shot of the board no longer matches its script, by shot id. */
export function shotFlags(layout: Layout, boardId: string): ReadonlyMap<string, string> {
  const script = scriptOfBoard(layout, boardId);
  return new Map(
    Object.entries(script?.screenplay.bindings ?? {}).flatMap(([shotId, binding]) =>
      binding.flag ? [[shotId, binding.flag] as const] : [],
    ),
  );
}

/** The receipt as a person reads it: a headline and the details. */
export function importSummary(receipt: ScriptImportReceipt): { headline: string; details: string[] } {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const details: string[] = [];
  if (receipt.changes) {
    for (const heading of receipt.changes.scenes_added) details.push(`Added: ${heading}`);
    for (const heading of receipt.changes.scenes_removed) details.push(`Removed: ${heading}`);
    for (const scene of receipt.changes.scenes_changed)
      details.push(
        `Changed: ${scene.heading} (${[
          ...scene.lines_added.map((line) => `+ ${line}`),
          ...scene.lines_removed.map((line) => `− ${line}`),
        ].join('; ')})`,
      );
  }
  for (const flag of receipt.flagged_shots) details.push(`Shot ${flag.number ?? flag.shot_id}: ${flag.reason}`);
  for (const skipped of receipt.not_mapped) details.push(`Not carried over: ${skipped.what}`);
  const changes = receipt.changes;
  const headline = changes
    ? changes.scenes_added.length + changes.scenes_removed.length + changes.scenes_changed.length === 0
      ? `The revised script has no changes to its scenes; ${plural(receipt.scenes, 'scene')}.`
      : `Since the last import: ${changes.scenes_added.length} added, ${changes.scenes_removed.length} removed, ${changes.scenes_changed.length} changed; ${plural(receipt.shots_added, 'new shot')}, ${plural(receipt.flagged_shots.length, 'shot')} to check.`
    : `Imported ${plural(receipt.scenes, 'scene')} as ${plural(receipt.shots_added + receipt.shots_filled, 'shot')}${receipt.shots_filled > 0 ? ` (${plural(receipt.shots_filled, 'empty shot')} of the board filled first)` : ''}; cast: ${receipt.characters.join(', ') || 'none'}.`;
  return { headline, details };
}
