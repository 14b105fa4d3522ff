/**
 * The change feed's rights checks, grouped: every open feed must end within `recheckMs` of its credential being revoked
 * or its rights lost, but feeds opened with the same credential on the same canvas (a token's sixteen, a person's tabs)
 * share the answer, so one check per group and round serves them all. At 10,000 idle feeds the per-feed timers were
 * 2,000 store reads a second; grouped, they are one read set per credential and canvas.
 */

export interface FeedRechecks {
  /** Adds a feed to the group of `key`; `check` answers whether it may go on; `end` closes it. Returns its removal. */
  add(key: string, check: () => Promise<boolean>, end: () => void): () => void;
  close(): void;
}

interface Group {
  check: () => Promise<boolean>;
  ends: Set<() => void>;
}

export function createFeedRechecks(recheckMs: number): FeedRechecks {
  const groups = new Map<string, Group>();
  let running = false;

  async function round(): Promise<void> {
    if (running) return;
    running = true;
    try {
      for (const [key, group] of [...groups]) {
        if (groups.get(key) !== group) continue;
        let allowed = true;
        try {
          allowed = await group.check();
        } catch {
          // The store is away: the feeds stay, and the next round asks again.
        }
        if (!allowed) {
          groups.delete(key);
          for (const end of group.ends) end();
        }
      }
    } finally {
      running = false;
    }
  }

  const timer = setInterval(() => void round(), recheckMs);
  timer.unref();

  return {
    add(key, check, end) {
      let group = groups.get(key);
      if (!group) {
        group = { check, ends: new Set() };
        groups.set(key, group);
      }
      const joined = group;
      joined.ends.add(end);
      return () => {
        joined.ends.delete(end);
        if (joined.ends.size === 0 && groups.get(key) === joined) groups.delete(key);
      };
    },
    close() {
      clearInterval(timer);
      groups.clear();
    },
  };
}
