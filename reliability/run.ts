import { amplification } from './scenarios/amplification.js';
import { authMatrix } from './scenarios/auth-matrix.js';
import { badInput } from './scenarios/bad-input.js';
import { databaseRestart } from './scenarios/database-restart.js';
import { exportWorkerFaults } from './scenarios/export-workers.js';
import { killRounds } from './scenarios/kill-rounds.js';
import { memory } from './scenarios/memory.js';
import { feedMemory, historyStall, revertAmplification } from './scenarios/people-side.js';
import { storm } from './scenarios/storm.js';
import { workerFaults } from './scenarios/workers.js';
import type { Row } from './harness.js';
import buildIfStale from '../test/support/build-if-stale.js';

/**
 * `npm run reliability` (docs/reliability.md): the service under faults (concurrent writers on two processes,
 * SIGKILL, a database restart, workers killed and stalled) and hostile input, against the built CLI. Prints one
 * table and exits 1 when any row fails. `--smoke` runs every scenario small, for CI.
 */

// The scenarios run the built CLI: built again only when a source is newer than it (CI's `npm ci` just built it).
buildIfStale();

const smoke = process.argv.includes('--smoke');
const scale = smoke
  ? { stormMs: 3_000, killRounds: 2, restartMs: 4_000, runs: 6, exports: 4, calls: 10_000 }
  : { stormMs: 15_000, killRounds: 10, restartMs: 8_000, runs: 16, exports: 8, calls: 100_000 };

const scenarios: Array<[string, () => Promise<Row>]> = [
  ['storm sqlite', () => storm('sqlite', scale.stormMs)],
  ['storm postgres', () => storm('postgres', scale.stormMs)],
  ['kill rounds', () => killRounds(scale.killRounds)],
  ['database restart', () => databaseRestart(scale.restartMs)],
  ['workers sqlite', () => workerFaults('sqlite', scale.runs)],
  ['workers postgres', () => workerFaults('postgres', scale.runs)],
  // The same kill and stall against the other kind of job the one machinery serves (src/jobs/job-workers.ts).
  ['export workers sqlite', () => exportWorkerFaults('sqlite', scale.exports)],
  ['export workers postgres', () => exportWorkerFaults('postgres', scale.exports)],
  ['bad input', () => badInput()],
  ['auth matrix', () => authMatrix()],
  ['amplification', () => amplification()],
  ['memory', () => memory(scale.calls)],
  ['feed memory', () => feedMemory()],
  ['history stall', () => historyStall()],
  ['revert amplification', () => revertAmplification()],
];

const only = process.argv.find((argument) => argument.startsWith('--only='))?.slice('--only='.length);
const rows: Row[] = [];
for (const [name, run] of scenarios) {
  if (only && !name.includes(only)) continue;
  process.stderr.write(`== ${name}\n`);
  try {
    rows.push(await run());
  } catch (error) {
    rows.push({
      scenario: name,
      store: '-',
      notes: `crashed: ${(error as Error).message.split('\n')[0]}`,
      pass: false,
    });
  }
}

const COLUMNS: Array<[keyof Row, string]> = [
  ['scenario', 'scenario'],
  ['store', 'store'],
  ['acknowledged', 'acked'],
  ['present', 'present'],
  ['integrity', 'integrity'],
  ['lost', 'lost'],
  ['halfApplied', 'half-applied'],
  ['doubleCharged', 'double-charged'],
  ['doubleExecuted', 'double-executed'],
  ['refusedCleanly', 'refused cleanly'],
  ['fiveXX', '5xx'],
  ['internal', 'internal'],
  ['bypasses', 'bypasses'],
  ['recoveryMs', 'recovery ms'],
  ['heapDriftMb', 'retained heap drift MB'],
  ['rssDriftMb', 'RSS drift MB'],
  ['pass', 'pass'],
];
const cell = (row: Row, key: keyof Row) =>
  row[key] === undefined ? '' : key === 'pass' ? (row.pass ? 'yes' : 'NO') : String(row[key]);
const widths = COLUMNS.map(([key, title]) => Math.max(title.length, ...rows.map((row) => cell(row, key).length)));
const line = (cells: string[]) => `| ${cells.map((value, index) => value.padEnd(widths[index]!)).join(' | ')} |`;
process.stdout.write(`${line(COLUMNS.map(([, title]) => title))}\n${line(widths.map((width) => '-'.repeat(width)))}\n`);
for (const row of rows) process.stdout.write(`${line(COLUMNS.map(([key]) => cell(row, key)))}\n`);
process.stdout.write('\n');
for (const row of rows) if (row.notes) process.stdout.write(`- ${row.scenario} (${row.store}): ${row.notes}\n`);
const failed = rows.filter((row) => !row.pass);
process.stdout.write(
  failed.length ? `\nFAILED: ${failed.map((row) => row.scenario).join(', ')}\n` : '\nall scenarios passed\n',
);
process.exitCode = failed.length ? 1 : 0;
