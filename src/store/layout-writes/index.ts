import {
  BatchReceipt,
  CreateEdgeReceipt,
  CreateNodeReceipt,
  DeleteEdgeReceipt,
  DeleteNodeReceipt,
  RevertReceipt,
  UndoChatRunReceipt,
  UpdateNodeReceipt,
  type CanvasEdge,
  type CanvasNode,
  type LayoutOperation,
  type NodeUpdate,
} from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { SqlDriver } from '../sql-driver.js';
import { applyOperation, createEdge, createNode, deleteEdge, deleteNode, updateNode } from './node-operations.js';
import { revertLayout } from './revert.js';
import { undoChatRunLayout } from './undo-chat-run.js';
import { DEFAULT_CAPS, runLayoutWrite, type CanvasCaps, type CommittedWrite, type WriteTarget } from './write-frame.js';

export type { CanvasCaps, CommittedWrite, WriteTarget } from './write-frame.js';
export { LAYOUT_EVENTS_CHANNEL, authorOf } from './write-frame.js';
export type { ChangeRecord } from './layout-tx.js';

/** Layout writes: one transaction and exactly one revision per call, whatever the number of operations. */
export function createCanvasWrites(driver: SqlDriver, clock: () => number, caps: Partial<CanvasCaps> = {}) {
  const listeners = new Set<(write: CommittedWrite) => void>();
  const deps = {
    driver,
    clock,
    caps: { ...DEFAULT_CAPS, ...caps },
    committed: (write: CommittedWrite) => {
      for (const listener of listeners) listener(write);
    },
  };

  /** The node a batch's first operation reads before anything changes (an update's or a delete's), if any. */
  const firstNodeRead = (operations: LayoutOperation[]): string[] => {
    const first = operations[0];
    return first?.op === 'update_node' || first?.op === 'delete_node' ? [first.node_id] : [];
  };

  return {
    /** Hears every write this process commits (the run engine's signals, the change feed). */
    onCommitted(listener: (write: CommittedWrite) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    createNode(target: WriteTarget, node: CanvasNode): Promise<CreateNodeReceipt> {
      return runLayoutWrite(
        deps,
        target,
        { operation: 'create_node', payload: { operation: 'create_node', node } },
        CreateNodeReceipt,
        async (layout) => {
          await createNode(layout, node, '');
          return { operation: 'create_node', node_id: node.id };
        },
      );
    },

    updateNode(target: WriteTarget, nodeId: string, set: NodeUpdate): Promise<UpdateNodeReceipt> {
      return runLayoutWrite(
        deps,
        target,
        { operation: 'update_node', payload: { operation: 'update_node', node_id: nodeId, set } },
        UpdateNodeReceipt,
        async (layout) => {
          await updateNode(layout, nodeId, set, '');
          return { operation: 'update_node', node_id: nodeId };
        },
        [nodeId],
      );
    },

    deleteNode(target: WriteTarget, nodeId: string): Promise<DeleteNodeReceipt> {
      return runLayoutWrite(
        deps,
        target,
        { operation: 'delete_node', payload: { operation: 'delete_node', node_id: nodeId } },
        DeleteNodeReceipt,
        async (layout) => {
          const { op: _op, ...result } = await deleteNode(layout, nodeId, '');
          return { operation: 'delete_node', ...result };
        },
        [nodeId],
      );
    },

    createEdge(target: WriteTarget, edge: CanvasEdge): Promise<CreateEdgeReceipt> {
      return runLayoutWrite(
        deps,
        target,
        { operation: 'create_edge', payload: { operation: 'create_edge', edge } },
        CreateEdgeReceipt,
        async (layout) => {
          await createEdge(layout, edge, '');
          return { operation: 'create_edge', edge_id: edge.id };
        },
      );
    },

    deleteEdge(target: WriteTarget, edgeId: string): Promise<DeleteEdgeReceipt> {
      return runLayoutWrite(
        deps,
        target,
        { operation: 'delete_edge', payload: { operation: 'delete_edge', edge_id: edgeId } },
        DeleteEdgeReceipt,
        async (layout) => {
          await deleteEdge(layout, edgeId, '');
          return { operation: 'delete_edge', edge_id: edgeId };
        },
      );
    },

    /** All operations or none, as one revision; a refusal names the operation index and the field. */
    applyBatch(target: WriteTarget, operations: LayoutOperation[]): Promise<BatchReceipt> {
      return runLayoutWrite(
        deps,
        target,
        { operation: 'batch', payload: { operation: 'batch', operations } },
        BatchReceipt,
        async (layout) => {
          const results = [];
          for (const [index, operation] of operations.entries()) {
            // 200 operations of a 1 MiB batch take ~100 ms.
            await layout.breathe();
            const refusal = (error: CanvasError) =>
              new CanvasError(error.code, `operations.${index} (${operation.op}): ${error.message}`, {
                ...error.details,
                operation_index: index,
              });
            // A refusal found later (a queued insert's duplicate key, on PostgreSQL) still names this operation.
            layout.refusalOf = refusal;
            try {
              results.push(await applyOperation(layout, operation, `operations.${index}`));
            } catch (error) {
              if (error instanceof CanvasError && error.details.operation_index === undefined) throw refusal(error);
              throw error;
            }
          }
          layout.refusalOf = null;
          return { operation: 'batch', results };
        },
        firstNodeRead(operations),
      );
    },

    /** Undoes what one chat run changed here, leaving what others changed after it. */
    undoChatRun(target: WriteTarget, agentRunId: string): Promise<UndoChatRunReceipt> {
      return runLayoutWrite(
        deps,
        target,
        { operation: 'undo_chat_run', payload: { operation: 'undo_chat_run', agent_run_id: agentRunId } },
        UndoChatRunReceipt,
        async (layout) => ({ operation: 'undo_chat_run', ...(await undoChatRunLayout(layout, agentRunId)) }),
      );
    },

    revert(target: WriteTarget, toRevision: number): Promise<RevertReceipt> {
      return runLayoutWrite(
        deps,
        target,
        { operation: 'revert', payload: { operation: 'revert', to_revision: toRevision } },
        RevertReceipt,
        async (layout) => {
          const result = await revertLayout(layout, toRevision);
          return {
            operation: 'revert',
            to_revision: toRevision,
            changed_node_ids: result.changedNodeIds,
            changed_edge_ids: result.changedEdgeIds,
            cancelled_run_ids: result.cancelledRunIds,
          };
        },
      );
    },
  };
}

export type CanvasWrites = ReturnType<typeof createCanvasWrites>;
