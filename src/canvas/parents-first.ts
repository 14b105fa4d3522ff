/**
 * Nodes with every parent before its children, otherwise in the order given (React Flow draws `nodes` in order and
 * needs a parent first; a revert inserts parents first). A parent cycle cannot hang it.
 */
export function parentsFirst<T extends { id: string; parentId?: string | undefined }>(nodes: readonly T[]): T[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const placed = new Set<string>();
  const ordered: T[] = [];
  const place = (node: T, path: Set<string>): void => {
    if (placed.has(node.id) || path.has(node.id)) return;
    path.add(node.id);
    const parent = node.parentId === undefined ? undefined : byId.get(node.parentId);
    if (parent) place(parent, path);
    placed.add(node.id);
    ordered.push(node);
  };
  for (const node of nodes) place(node, new Set());
  return ordered;
}
