import type { StoreApi } from 'zustand/vanilla';
import type { CanvasSnapshot, RunChain } from '../../../src/contract/index.js';
import type { CanvasController, CanvasState, Notice } from './canvas-state.js';
import type { CanvasTransport } from './transport.js';

/** "Run from here" on one open canvas: the chains this page follows, kept under their root node. */
export type ChainController = NonNullable<CanvasController['chains']> & {
  /** Follows the chains a snapshot says are running that this page does not follow yet (after a reload, say). */
  resume(snapshot: CanvasSnapshot): void;
};

export function chainController(
  chains: NonNullable<CanvasTransport['chains']>,
  store: StoreApi<CanvasState>,
  notify: (tone: Notice['tone'], text: string) => void,
): ChainController {
  const track = (chain: RunChain) =>
    store.setState((state) => ({ chains: { ...state.chains, [chain.root_node_id]: chain } }));
  const reading = new Set<string>();
  const followed = (chainId: string) =>
    Object.values(store.getState().chains).some((chain) => chain.chain_id === chainId);
  return {
    estimate: (nodeId) => chains.estimate(nodeId),
    async start(nodeId, idempotencyKey) {
      try {
        const chain = await chains.submit(nodeId, idempotencyKey);
        track(chain);
        return chain;
      } catch (error) {
        notify('error', `The chain did not start: ${(error as Error).message}`);
        return null;
      }
    },
    read: (chainId) => chains.read(chainId),
    track,
    forget: (rootNodeId) =>
      store.setState((state) => {
        const { [rootNodeId]: _closed, ...rest } = state.chains;
        return { chains: rest };
      }),
    async cancel(chainId) {
      try {
        const chain = await chains.cancel(chainId);
        track(chain);
        return chain;
      } catch (error) {
        notify('error', `The chain was not cancelled: ${(error as Error).message}`);
        return null;
      }
    },
    resume(snapshot) {
      // The chains with a step still queued, running or asked to stop, which the snapshot lists beside node_states.
      for (const chainId of snapshot.active_chains ?? []) {
        if (reading.has(chainId) || followed(chainId)) continue;
        reading.add(chainId);
        chains
          .read(chainId)
          .then(
            (chain) => {
              if (!followed(chainId)) track(chain);
            },
            (error: unknown) =>
              notify('error', `A chain running on this canvas cannot be followed: ${(error as Error).message}`),
          )
          .finally(() => reading.delete(chainId));
      }
    },
  };
}
