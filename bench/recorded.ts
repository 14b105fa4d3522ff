import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes.js';
import { format } from './workload.js';

/**
 * The bench compares itself with its last recorded figures (bench/recorded-figures.json, in the repository): each
 * ratio is printed beside the one recorded, and a headline ratio that moved against us by more than this machine's
 * spread is called out loudly. Ratios, not milliseconds: both sides of a ratio are measured in the same run, so a
 * slower or busier host moves them far less than it moves the times themselves (docs/performance.md, "Reading the
 * figures"). `BENCH_RECORD=1 npm run bench` writes today's figures as the new record: do it when a change is meant
 * to move them, and commit the file with the change.
 */

export const RECORDED_FILE = join(ROOT, 'bench', 'recorded-figures.json');

/**
 * How far a ratio moves between two runs of the same code on this 2-core shared host: the largest move measured
 * between runs of the same build (docs/performance.md, "Reading the figures"): on 2026-11-28, get_canvas at 1,000
 * nodes was 12.26× the bare handler in one run and 8.74× in the next (29 %). A move within it says nothing; a move past
 * it against us is called out.
 */
export const SPREAD = 0.3;

export interface Ratio {
  /** A stable name: the key of the record. */
  name: string;
  value: number;
  /** Whether a larger ratio is better for us (ours cheaper: "bare ÷ ours") or worse. */
  better: 'higher' | 'lower';
  /** A ratio the issue tracker and docs hold us to: moving against us past the spread is a loud line. */
  headline: boolean;
}

interface RecordFile {
  recorded_at: string;
  node: string;
  spread: number;
  ratios: Record<string, Record<string, number>>;
}

function readRecord(): RecordFile | null {
  if (!existsSync(RECORDED_FILE)) return null;
  return JSON.parse(readFileSync(RECORDED_FILE, 'utf8')) as RecordFile;
}

/** How much a ratio moved against us, as a fraction (0.25: a quarter worse); negative when it improved. */
export function movedAgainst(ratio: Ratio, recorded: number): number {
  return ratio.better === 'higher' ? (recorded - ratio.value) / recorded : (ratio.value - recorded) / recorded;
}

/**
 * The comparison table of one bench (markdown) and the loud lines, if any; with BENCH_RECORD=1 the bench's ratios
 * replace its recorded ones.
 */
export function compareWithRecorded(bench: string, ratios: readonly Ratio[]): { table: string; alarms: string[] } {
  const record = readRecord();
  const recorded = record?.ratios[bench] ?? {};
  const alarms: string[] = [];
  const rows = ratios.map((ratio) => {
    const before = recorded[ratio.name];
    if (before === undefined) return `| ${ratio.name} | ${format(ratio.value)}× | (none) | |`;
    const moved = movedAgainst(ratio, before);
    const verdict =
      moved > SPREAD
        ? ratio.headline
          ? '**WORSE, past the spread**'
          : 'worse, past the spread'
        : moved < -SPREAD
          ? 'better, past the spread'
          : 'within the spread';
    if (moved > SPREAD && ratio.headline)
      alarms.push(
        `!!! ${bench}: "${ratio.name}" is ${format(ratio.value)}×, recorded ${format(before)}× (${format(100 * moved, 0)} % against us; the spread is ${format(100 * SPREAD, 0)} %)`,
      );
    return `| ${ratio.name} | ${format(ratio.value)}× | ${format(before)}× | ${verdict} |`;
  });
  const table = [
    `Against the recorded figures (${record ? `${record.recorded_at}, node ${record.node}` : 'none recorded yet'}; spread ${format(100 * SPREAD, 0)} %):`,
    '',
    '| ratio | now | recorded | |',
    '|---|---:|---:|---|',
    ...rows,
  ].join('\n');
  if (process.env.BENCH_RECORD === '1') {
    const next: RecordFile = record ?? { recorded_at: '', node: '', spread: SPREAD, ratios: {} };
    next.recorded_at = new Date().toISOString().slice(0, 10);
    next.node = process.version;
    next.spread = SPREAD;
    next.ratios[bench] = Object.fromEntries(ratios.map((ratio) => [ratio.name, Number(ratio.value.toFixed(3))]));
    writeFileSync(RECORDED_FILE, `${JSON.stringify(next, null, 2)}\n`);
  }
  return { table, alarms };
}

/** Prints the loud lines where nobody can miss them: last, framed, on standard error as well. */
export function announceAlarms(alarms: readonly string[]): void {
  if (alarms.length === 0) return;
  const frame = '!'.repeat(100);
  const text = [frame, ...alarms, frame].join('\n');
  process.stdout.write(`\n${text}\n`);
  process.stderr.write(`${text}\n`);
}
