import { randomBytes } from 'node:crypto';
import {
  Screenplay,
  type CanvasNode,
  type CanvasRef,
  type ScriptImportBody,
  type ScriptImportReceipt,
  dataOf,
} from '../../contract/index.js';
import { planScriptImport } from '../../storyboard/screenplay/board-from-script.js';
import type { ScriptReader } from '../../storyboard/screenplay/read-pool.js';
import { buildScreenplay, changesBetween } from '../../storyboard/screenplay/screenplay.js';
import { fitsInNode, screenplayForNode, withScreenplayInNode } from '../../storyboard/screenplay/screenplay-in-node.js';
import type { Assets } from '../../assets/assets.js';
import { CanvasError } from '../../shared/errors.js';
import type { KeepServerFiles } from '../uploads/server-files.js';
import type { Store } from '../../store/store.js';
import { requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import type { CanvasBackend } from '../canvas/backend.js';

/**
 * Script import (docs/storyboards.md, "The script"): the file is read (Fountain, Final Draft,
 * plain text), turned into scenes and lines, and written with its board as one batch at the caller's base_revision,
 * with the same checks, history and feed as every other write. A revised script imported into the same script node reports
 * what changed and keeps every shot.
 */
export function createScriptImport(
  store: Store,
  backend: CanvasBackend,
  reader: ScriptReader,
  files: { assets: Assets; keep: KeepServerFiles },
) {
  const newId = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

  /** The screenplay a script node holds: whole, or read whole from the asset it names when it was too long. */
  async function screenplayOf(ref: CanvasRef, node: CanvasNode | null): Promise<Screenplay | null> {
    const inNode = node ? Screenplay.safeParse(dataOf(node, 'scriptNode')?.scriptResult) : null;
    if (!inNode?.success) return null;
    const url = inNode.data.fullScreenplayUrl;
    if (!url) return inNode.data;
    const assetId = /^\/assets\/([^/?#]+)$/.exec(url)?.[1];
    const record = assetId ? await store.assets.getAsset(assetId) : null;
    // Node data anyone may write: only an asset of this project is read, and read as untrusted.
    const bytes = record && record.projectId === ref.projectId ? await files.assets.bytesOf(record) : null;
    const whole = bytes ? Screenplay.safeParse(JSON.parse(bytes.toString('utf8'))) : null;
    if (!whole?.success)
      throw new CanvasError(
        'invalid_arguments',
        `The script node ${node!.id} names its screenplay at ${url}, which cannot be read: import the script into a new node.`,
        { node_id: node!.id },
      );
    return whole.data;
  }

  /** The screenplay as its node keeps it: whole, or (too long for a node) kept as an asset the node names. */
  async function screenplayForItsNode(ctx: CallerContext, ref: CanvasRef, screenplay: Screenplay): Promise<Screenplay> {
    const whole = { ...screenplay, fullScreenplayUrl: undefined };
    if (fitsInNode(whole)) return whole;
    const [assetId] = await files.keep(
      ctx,
      ref,
      [
        {
          bytes: Buffer.from(JSON.stringify(whole), 'utf8'),
          kind: 'document',
          mimeType: 'application/json',
          name: `${screenplay.fileName} screenplay.json`,
        },
      ],
      'this screenplay',
    );
    return screenplayForNode(whole, `/assets/${assetId!}`);
  }

  async function existing(ref: CanvasRef, nodeId: string | undefined, type: string): Promise<CanvasNode | null> {
    if (!nodeId) return null;
    const found = await store.layout.readNode(ref.projectId, ref.canvasId, nodeId);
    if (!found) return null;
    if (found.node.type !== type)
      throw new CanvasError('invalid_arguments', `${nodeId} is a ${found.node.type}, not a ${type}.`, {
        node_id: nodeId,
      });
    return found.node;
  }

  return {
    async importScript(ctx: CallerContext, ref: CanvasRef, body: ScriptImportBody): Promise<ScriptImportReceipt> {
      // Rights first: nobody without them makes the server read a file, or learns what the canvas holds.
      await backend.authorize(ctx, ref.projectId, 'editor');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      const read = await reader.read(body.file_name, body.text);
      if (read.read.headings === 0)
        throw new CanvasError(
          'invalid_arguments',
          `${body.file_name}: no scene was found (a scene starts with a heading such as INT. LIGHTHOUSE - NIGHT).`,
          { file_name: body.file_name },
        );
      const scriptNode = await existing(ref, body.script_node_id, 'scriptNode');
      if (body.script_node_id && !scriptNode)
        throw new CanvasError('not_found', `There is no node ${body.script_node_id} on this canvas.`, {
          node_id: body.script_node_id,
        });
      const before = await screenplayOf(ref, scriptNode);
      const boardNodeId = body.board_node_id ?? before?.boardNodeId ?? newId('board');
      const board = await existing(ref, boardNodeId, 'storyboardNode');
      const screenplay = buildScreenplay(
        read.read,
        read.source,
        body.file_name,
        (before?.imports ?? 0) + 1,
        boardNodeId,
      );
      const scriptNodeId = body.script_node_id ?? newId('script');
      const plan = planScriptImport({
        screenplay,
        previous: before,
        scriptNode,
        scriptNodeId,
        board,
        boardNodeId,
        position: body.position ?? { x: 0, y: 0 },
        newShotId: () => newId('shot'),
      });
      const kept = await screenplayForItsNode(ctx, ref, plan.screenplay);
      const receipt = await backend.applyBatch(ctx, {
        ...ref,
        baseRevision: body.base_revision,
        clientSaveId: null,
        operations: withScreenplayInNode(plan.operations, scriptNodeId, kept),
      });
      return {
        revision: receipt.revision,
        script_node_id: scriptNodeId,
        board_node_id: boardNodeId,
        scenes: plan.screenplay.scenes.length,
        characters: plan.screenplay.characters,
        changes: before ? changesBetween(before, plan.screenplay) : null,
        shots_added: plan.shotsAdded,
        shots_filled: plan.shotsFilled,
        flagged_shots: plan.flagged,
        not_mapped: plan.wordsShortened
          ? [
              ...read.read.notMapped,
              {
                line: null,
                what: `the whole action and dialogue of ${plan.wordsShortened} shots: the board shows an excerpt ending in "…" so that it fits its node, and each shot stays bound to all its lines in the script node`,
              },
            ]
          : read.read.notMapped,
      };
    },
  };
}

export type ScriptImport = ReturnType<typeof createScriptImport>;
