import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fcpXml } from '../src/exports/timeline/fcp-xml.js';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { editFcpXml } from '../test/support/timeline-edits.js';
import { ROOT, startProcess } from './processes.js';
import { demoOwnerScript } from './workload.js';

/**
 * `npm run bench` (part): conform (docs/deliverables.md, "Conform") on the built server over real HTTP. A 100-shot
 * board's FCP 7 XML, as our export writes it, comes back from the editor with a trim, a swap and a dropped shot and is
 * conformed: one revision and its report. Baseline in the same run: the same board written whole in one REST update
 * (what any change of the board costs), so the figure shows what reading the timeline and planning the cut add.
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const SHOTS = 100;
const ROUNDS = Number(process.env.BENCH_CONFORMS ?? 20);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const frames = Array.from({ length: SHOTS }, (_, index) => ({
  id: `s${index + 1}`,
  number: String(index + 1),
  imageUrl: null,
  durationMs: 1000 + (index % 7) * 250,
  action: `Shot ${index + 1}: the lamp turns over the harbour.`,
}));

export async function measureConform() {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-conform-'));
  const { child, url } = await startProcess(
    [CLI, 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '0', '--workers', '0'],
    join(dataDir, 'serve.log'),
  );
  try {
    const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
    const headers = { ...(await demoOwnerScript(store, 'editor script')), 'content-type': 'application/json' };
    await store.close();
    const canvas = `${url}/api/v2/projects/demo/canvases/main`;
    const revision = async () =>
      (
        (await (
          await fetch(`${canvas}/snapshot`, {
            headers: { ...headers, 'x-canvas-snapshot-version': 'canvas-snapshot.v2' },
          })
        ).json()) as { layout: { revision: number } }
      ).layout.revision;
    const node = { id: 'cut', type: 'storyboardNode', position: { x: 0, y: 20_000 }, data: { title: 'Cut', frames } };
    const created = await fetch(`${canvas}/nodes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ node, base_revision: await revision() }),
    });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);

    const exported = fcpXml({
      title: 'Cut',
      rate: '24',
      mediaFileName: 'Cut-animatic.mp4',
      hasAudio: false,
      shots: frames.map((frame) => ({ id: frame.id, number: frame.number, durationMs: frame.durationMs })),
    });
    // The editor's cut and our own export, in turn: each conform changes the board.
    const edited = editFcpXml(exported, [{ trim: 3, by: 1 }, { swap: [5, 6] }, { drop: 8 }]);

    const conforms: number[] = [];
    const writes: number[] = [];
    let report = '';
    for (let round = 0; round < ROUNDS; round += 1) {
      const text = round % 2 === 0 ? edited : exported;
      let started = performance.now();
      const answer = await fetch(`${canvas}/conform`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ base_revision: await revision(), node_id: 'cut', file_name: 'cut.xml', text }),
      });
      const body = await answer.text();
      conforms.push(performance.now() - started);
      if (answer.status !== 200 && answer.status !== 201) throw new Error(`conform answered ${answer.status}: ${body}`);
      if (round === 0) report = body;

      started = performance.now();
      const write = await fetch(`${canvas}/nodes/cut`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({
          base_revision: await revision(),
          set: { data: { title: `Cut ${round}`, frames } },
        }),
      });
      await write.arrayBuffer();
      writes.push(performance.now() - started);
      if (write.status !== 200) throw new Error(`write answered ${write.status}`);
    }
    return { conforms, writes, xmlBytes: Buffer.byteLength(edited), report };
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureConform();
  const row = (name: string, values: number[]) =>
    `| ${name} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 99).toFixed(1)} | ${(percentile(values, 50) / percentile(figures.writes, 50)).toFixed(1)}× |`;
  const lines = [
    '| 100-shot board | p50 ms | p99 ms | p50 against the whole-board write |',
    '|---|---:|---:|---:|',
    row('the whole board written in one REST update (baseline)', figures.writes),
    row(
      `conformed to its FCP 7 XML (${(figures.xmlBytes / 1024).toFixed(0)} KB; a trim, a swap, a drop)`,
      figures.conforms,
    ),
  ];
  process.stdout.write(`\nconform (${ROUNDS} rounds):\n${lines.join('\n')}\n`);
}
