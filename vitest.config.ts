import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Three lanes:
 * - `quick` (`npm run test:quick`): the contract, settings, the web model and unit tests of pure logic; they start no
 *   server, process or browser, and answer in well under a minute.
 * - `main`: everything else, on real servers, databases and Chromium; files run side by side (they share nothing: each
 *   starts its own server on a free port and its own database).
 * - `latency-budgets`: tests that hold the event loop to a budget while a large request runs. They measure the event
 *   loop's own delay, not wall-clock answers (test/support/raw-http.ts), and run after the rest, one file at a time, so
 *   a neighbour's CPU never stands in for a stall of the code.
 */
const QUICK_FILES = [
  'test/contract/**/*.test.ts',
  'test/config/**/*.test.ts',
  'test/unit/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'web/test/**/*.test.ts',
];
const LATENCY_BUDGET_FILES = [
  'test/backend/cold-read.test.ts',
  'test/backend/script-import-limits.test.ts',
  'test/backend/history-stall.test.ts',
  'test/backend/rest-hardening.test.ts',
  'test/mcp/hardening.test.ts',
];

/**
 * Test files at once: one more than the cores. A file spends much of its time waiting on its server, its database, its
 * browser or a timer (one file per core left the 2 cores 44% idle over a whole run), and a third file fills that wait.
 */
const WORKERS = availableParallelism() + 1;

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: WORKERS,
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: QUICK_FILES,
          // Pure tests share one module graph per worker: importing the contract and zod again for each of ~26 files
          // cost more than the tests themselves.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'main',
          // A browser test's time on this 2-core machine depends on its neighbours and on the host: with the cores
          // 100 % busy and the kernel taking a third of them (2026-11-29, here and in CI), tests that take 10 s alone
          // passed 60 s. The limit catches a hang; no test waits for it.
          testTimeout: 150_000,
          hookTimeout: 150_000,
          // The browser tests need the built web canvas and MCP App, the CLI tests the built CLI: rebuilt here when stale.
          globalSetup: ['test/support/build-if-stale.ts'],
          // Files of a worker share one module graph: evaluating the server's modules again for each of ~130 files cost
          // more than many of the tests. Each file still starts its own server, store and browser: nothing is shared
          // through a module but code.
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: [...LATENCY_BUDGET_FILES, ...QUICK_FILES],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'latency-budgets',
          include: LATENCY_BUDGET_FILES,
          sequence: { groupOrder: 2 },
          fileParallelism: false,
          // One after another in one process, sharing one module graph: each file imported the server's modules again
          // (the lane alone: 44 s against 46 s).
          isolate: false,
        },
      },
    ],
  },
});
