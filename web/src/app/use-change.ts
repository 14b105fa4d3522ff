import { useState } from 'react';

/**
 * A page's changes (a role, a canvas, an invitation): run one, say a refusal in the server's words, and show things
 * as they are now whatever happened. Answers the change runner and the last refusal.
 */
export function useChange(reload: () => Promise<unknown>): {
  act: (change: () => Promise<unknown>) => Promise<void>;
  problem: string | null;
} {
  const [problem, setProblem] = useState<string | null>(null);
  const act = async (change: () => Promise<unknown>) => {
    setProblem(null);
    for (const step of [change, reload]) {
      try {
        await step();
      } catch (error) {
        setProblem((error as Error).message);
      }
    }
  };
  return { act, problem };
}
