import { SNAPSHOT_CONTRACT_VERSION, type CanvasSnapshot } from '../../../src/contract/index.js';
import type { Layout } from '../../src/model/layout.js';
import type { CanvasTransport, FeedHandlers } from '../../src/model/transport.js';

/**
 * A canvas server in memory, for the web model's tests without a browser: the person (`ann`, with `role`), the canvas
 * as it now is, and its change feed. Each test gives it the answer to a batch of changes, the part it is about.
 */
export function memoryCanvas(initial: Layout, role: 'viewer' | 'editor' = 'editor') {
  let feed: FeedHandlers | null = null;
  const canvas = {
    /** The canvas as the server holds it; a test's `changes` moves it on. */
    layout: initial,
    snapshot: (): CanvasSnapshot => ({
      snapshot_version: SNAPSHOT_CONTRACT_VERSION,
      project_id: 'demo',
      canvas_id: 'main',
      locked: false,
      layout: canvas.layout,
      node_states: {},
    }),
    /** The feed tells the page the canvas as it now is. */
    tell: () => feed?.snapshot(canvas.snapshot()),
    transport(changes: (base: number, operations: Parameters<CanvasTransport['changes']>[1]) => Promise<unknown>) {
      return {
        whoAmI: async () => ({ role, person: { issuer: 'idp', subject: 'ann' } }),
        snapshot: async () => canvas.snapshot(),
        history: async () => ({ revisions: [] }),
        follow(_after: number, handlers: FeedHandlers) {
          feed = handlers;
          return () => undefined;
        },
        changes,
      } as unknown as CanvasTransport;
    },
  };
  return canvas;
}
