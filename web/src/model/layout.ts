import { parentsFirst } from '../../../src/canvas/parents-first.js';
import type {
  CanvasEdge,
  CanvasNode,
  LayoutEvent,
  LayoutOperation,
  NodeUpdate,
  RevisionAuthor,
} from '../../../src/contract/index.js';

/**
 * The canvas layout as the page holds it, and the pure functions that change it: applying a feed event, ordering
 * parents before children (React Flow draws `nodes` in order and needs a parent first), and the inverse of a change
 * (what undo sends).
 */

export interface Layout {
  revision: number;
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

/** A `layout` event of the change feed, and who made a revision: the contract's shapes. */
export type LayoutEventData = LayoutEvent;
export type Author = RevisionAuthor;

/**
 * Who made a change, in words; `names` (`issuer|subject` → the name a person chose, from the members list) puts names
 * where subjects would be (docs/ui.md, "Names").
 */
export function authorLabel(author: Author | null | undefined, names?: ReadonlyMap<string, string>): string {
  if (!author) return 'someone';
  switch (author.kind) {
    case 'person':
      return names?.get(`${author.issuer}|${author.subject}`) ?? author.subject;
    case 'agent': {
      const name = author.token_name ?? author.agent_run_id ?? author.token_id;
      // The canvas chat's own agent says whom it works for in its name.
      if (author.token_name?.startsWith('Assistant for ')) return author.token_name;
      return author.on_behalf_of ? `${name} (agent of ${author.on_behalf_of.subject})` : `${name} (agent)`;
    }
    case 'system':
      return 'the system';
  }
}

export { parentsFirst };

function upsert<T extends { id: string }>(items: T[], item: T): T[] {
  const index = items.findIndex((existing) => existing.id === item.id);
  if (index < 0) return [...items, item];
  const next = [...items];
  next[index] = item;
  return next;
}

export function applyLayoutEvent(layout: Layout, event: LayoutEventData): Layout {
  let { nodes, edges } = layout;
  for (const change of event.changes) {
    if (change.kind === 'node') {
      if (change.change === 'delete') nodes = nodes.filter((node) => node.id !== change.id);
      else if (change.node) nodes = upsert(nodes, change.node);
    } else if (change.change === 'delete') {
      edges = edges.filter((edge) => edge.id !== change.id);
    } else if (change.edge) {
      edges = upsert(edges, change.edge);
    }
  }
  return { revision: event.revision, nodes: parentsFirst(nodes), edges };
}

const ENVELOPE_KEYS = [
  'position',
  'width',
  'height',
  'style',
  'parentId',
  'extent',
  'expandParent',
  'hidden',
  'selected',
  'draggable',
  'selectable',
  'connectable',
  'deletable',
  'zIndex',
  'data',
] as const satisfies ReadonlyArray<keyof NodeUpdate>;

/** The update that sets back what `set` changes on `node` (null for a field the node did not have). */
function reverseUpdate(node: CanvasNode, set: NodeUpdate): NodeUpdate {
  const back: Record<string, unknown> = {};
  for (const key of ENVELOPE_KEYS) {
    if (!(key in set)) continue;
    const previous = (node as Record<string, unknown>)[key];
    back[key] = previous === undefined ? null : previous;
  }
  return back as NodeUpdate;
}

/**
 * The operations that undo `operations`, given the layout before them; null when they cannot be undone from here
 * (an operation on something the layout does not hold).
 */
export function inverseOperations(before: Layout, operations: LayoutOperation[]): LayoutOperation[] | null {
  const inverse: LayoutOperation[] = [];
  const nodes = new Map(before.nodes.map((node) => [node.id, node]));
  const edges = new Map(before.edges.map((edge) => [edge.id, edge]));
  for (const operation of operations) {
    switch (operation.op) {
      case 'create_node':
        inverse.unshift({ op: 'delete_node', node_id: operation.node.id });
        break;
      case 'update_node': {
        const node = nodes.get(operation.node_id);
        if (!node) return null;
        inverse.unshift({ op: 'update_node', node_id: node.id, set: reverseUpdate(node, operation.set) });
        break;
      }
      case 'delete_node': {
        const node = nodes.get(operation.node_id);
        if (!node) return null;
        const restore: LayoutOperation[] = [{ op: 'create_node', node }];
        for (const edge of before.edges)
          if (edge.source === node.id || edge.target === node.id) restore.push({ op: 'create_edge', edge });
        // Deleting a parent moved its children: put them back inside it.
        for (const child of before.nodes) {
          if (child.parentId !== node.id) continue;
          restore.push({
            op: 'update_node',
            node_id: child.id,
            set: { parentId: node.id, position: child.position, extent: child.extent ?? null },
          });
        }
        inverse.unshift(...restore);
        break;
      }
      case 'create_edge':
        inverse.unshift({ op: 'delete_edge', edge_id: operation.edge.id });
        break;
      case 'delete_edge': {
        const edge = edges.get(operation.edge_id);
        if (!edge) return null;
        inverse.unshift({ op: 'create_edge', edge });
        break;
      }
    }
  }
  // An edge deleted on its own and with its node comes back once.
  const recreated = new Set<string>();
  return inverse.filter((operation) => {
    if (operation.op !== 'create_edge') return true;
    if (recreated.has(operation.edge.id)) return false;
    recreated.add(operation.edge.id);
    return true;
  });
}
