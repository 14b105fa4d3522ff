import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { ROOT, startProcess } from './processes.js';
import { arrivalWaiter, readEvents } from './sse-reader.js';
import { benchToken, demoOwnerScript } from './workload.js';

/**
 * `npm run bench` (part): the storyboard team's heavy gestures, on the built server over real HTTP.
 * - A 20 MB photo dropped: from the upload's first byte to its thumbnail's bytes at a second open page (the page's
 *   feed announces the new card, the page fetches the card's thumbnail), against a 20 KB picture the same way.
 * - A 120-page Fountain script imported into scenes and shots, against a one-page script.
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 12);
const IMPORTS = Number(process.env.BENCH_IMPORTS ?? 8);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** A photo of noise (no encoder squeezes it) near `megabytes`: what a phone's full-size JPEG weighs. */
async function photo(megabytes: number): Promise<Buffer> {
  // Noise at quality 92 takes about 0.8 bytes a pixel.
  const pixels = (megabytes * 1024 * 1024) / 0.8;
  const width = Math.round(Math.sqrt(pixels * 1.5));
  const height = Math.round(width / 1.5);
  const noise = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let index = 0; index < noise.length; index += 1) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    noise[index] = seed >>> 24;
  }
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A screenplay of about `pages` pages (about 1.5 KB a page, as a real one): two scenes a page, action and dialogue. */
export function screenplayOf(pages: number): string {
  const lines = ['Title: Bench Script', '', 'FADE IN:', ''];
  for (let scene = 1; scene <= pages * 2; scene += 1) {
    lines.push(`${scene % 2 ? 'INT' : 'EXT'}. LOCATION ${scene} - ${scene % 3 ? 'DAY' : 'NIGHT'}`, '');
    lines.push(
      `Scene ${scene} opens on the stairwell. Wind presses against the glass; somewhere above, the lamp turns and its beam sweeps the water.`,
      '',
    );
    for (let exchange = 0; exchange < 6; exchange += 1) {
      lines.push(
        exchange % 2 ? 'ODE' : 'MARA',
        `Line ${exchange} of scene ${scene}: it is still burning, and it will burn until someone climbs up to stop it.`,
        '',
      );
    }
    lines.push('They stand a moment longer, listening to the sea, then turn to the stairs and go down together.', '');
  }
  return lines.join('\n');
}

export async function measureStoryboards() {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-storyboards-'));
  const logFile = join(dataDir, 'serve.log');
  const { child, url } = await startProcess(
    [CLI, 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '0', '--workers', '0'],
    logFile,
  );
  try {
    const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
    const reader = (
      await benchToken(store, { name: 'second page', kind: 'backend', role: 'viewer', projects: ['demo'] })
    ).secret;
    const writer = await demoOwnerScript(store, 'team script');
    await store.close();
    const canvas = `${url}/api/v2/projects/demo/canvases/main`;
    const revision = async () =>
      (
        (await (
          await fetch(`${canvas}/snapshot`, {
            headers: { ...writer, 'x-canvas-snapshot-version': 'canvas-snapshot.v2' },
          })
        ).json()) as { layout: { revision: number } }
      ).layout.revision;

    // The second page: its feed, and the node data of each layout event it hears.
    const arrival = arrivalWaiter();
    const seen = new Map<number, string>();
    const feed = new AbortController();
    void readEvents(
      await fetch(`${canvas}/events`, {
        headers: { authorization: `Bearer ${reader}`, accept: 'text/event-stream' },
        signal: feed.signal,
      }),
      (block) => {
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        if (block.startsWith('event: layout') && id) {
          seen.set(Number(id), block);
          arrival.wake();
        }
      },
    );

    async function dropOnce(bytes: Buffer, index: number): Promise<number> {
      const started = performance.now();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `photo-${index}.jpg`);
      const answer = await fetch(`${canvas}/uploads`, { method: 'POST', headers: writer, body: form });
      if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${await answer.text()}`);
      const kept = (await answer.json()) as {
        uploads: Array<{ node_type: string; node_data: Record<string, unknown>; thumbnail_url: string }>;
      };
      const [upload] = kept.uploads;
      const base = await revision();
      await fetch(`${canvas}/nodes`, {
        method: 'POST',
        headers: { ...writer, 'content-type': 'application/json' },
        body: JSON.stringify({
          base_revision: base,
          node: {
            id: `drop-${index}-${base}`,
            type: upload!.node_type,
            position: { x: index * 320, y: 4000 },
            data: upload!.node_data,
          },
        }),
      });
      await arrival.until(() => seen.has(base + 1), 10_000);
      const thumbnail = /"previewImageUrl":"([^"]+)"/.exec(seen.get(base + 1) ?? '')?.[1] ?? upload!.thumbnail_url;
      const response = await fetch(`${url}${thumbnail.replace(/^https?:\/\/[^/]+/, '')}`, {
        headers: { authorization: `Bearer ${reader}` },
      });
      await response.arrayBuffer();
      return performance.now() - started;
    }

    const large = await photo(20);
    const small = await photo(0.02);
    const drops = { large: [] as number[], small: [] as number[] };
    for (let index = 0; index < UPLOADS; index += 1) {
      drops.small.push(await dropOnce(small, index));
      drops.large.push(await dropOnce(large, index + 1000));
    }
    feed.abort();

    async function importOnce(text: string, index: number): Promise<number> {
      const started = performance.now();
      const response = await fetch(`${canvas}/script-import`, {
        method: 'POST',
        headers: { ...writer, 'content-type': 'application/json' },
        body: JSON.stringify({
          base_revision: await revision(),
          file_name: `bench-${index}.fountain`,
          text,
          position: { x: index * 2000, y: 8000 },
        }),
      });
      if (response.status !== 201) throw new Error(`import answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      return performance.now() - started;
    }
    const long = screenplayOf(120);
    const short = screenplayOf(1);
    const imports = { long: [] as number[], short: [] as number[] };
    for (let index = 0; index < IMPORTS; index += 1) {
      imports.short.push(await importOnce(short, index));
      imports.long.push(await importOnce(long, index + 100));
    }
    return {
      photoBytes: large.length,
      smallBytes: small.length,
      drops,
      scriptBytes: Buffer.byteLength(long),
      scenes: 240,
      imports,
    };
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureStoryboards();
  const row = (name: string, values: number[], baseline: number[]) =>
    `| ${name} | ${percentile(values, 50).toFixed(0)} | ${percentile(values, 99).toFixed(0)} | ${(percentile(values, 50) / percentile(baseline, 50)).toFixed(1)}× |`;
  const lines = [
    '| gesture | p50 ms | p99 ms | p50 against its baseline |',
    '|---|---:|---:|---:|',
    row(
      `${(figures.smallBytes / 1024).toFixed(0)} KB picture dropped → thumbnail at a second page (baseline)`,
      figures.drops.small,
      figures.drops.small,
    ),
    row(
      `${(figures.photoBytes / 1024 / 1024).toFixed(1)} MB photo dropped → thumbnail at a second page`,
      figures.drops.large,
      figures.drops.small,
    ),
    row('1-page Fountain script imported (baseline)', figures.imports.short, figures.imports.short),
    row(
      `120-page Fountain script (${figures.scenes} scenes, ${(figures.scriptBytes / 1024).toFixed(0)} KB) imported`,
      figures.imports.long,
      figures.imports.short,
    ),
  ];
  process.stdout.write(`\nstoryboards (${UPLOADS} drops, ${IMPORTS} imports each):\n${lines.join('\n')}\n`);
}
