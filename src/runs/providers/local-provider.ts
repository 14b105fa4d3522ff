import { appendFileSync } from 'node:fs';
import type { AssetKind } from '../../contract/index.js';
import { abortableDelay, type ProducedAsset, type ProviderJob, type RunProvider } from './provider.js';
import { aspectOf, deterministicPng, deterministicWav } from './artifacts.js';

/**
 * The built-in offline provider: it takes `durationMs`, reports progress ten times, honours cancellation at every
 * step, and produces real files derived deterministically from the input (PNG images, WAV audio, JSON results).
 */
export interface LocalProviderOptions {
  durationMs: number;
  /** Diagnostics: appends "run_id attempt" to this file each time an execution starts. */
  executionLog?: string;
}

const STEPS = 10;
const IMAGE_WIDTH = 256;

function seedOf(job: ProviderJob, index: number): string {
  return JSON.stringify({ operation: job.operation, input: job.input, index });
}

function produce(job: ProviderJob, output: { assetId: string; kind: AssetKind }, index: number): ProducedAsset {
  const seed = seedOf(job, index);
  switch (output.kind) {
    case 'image':
      return {
        assetId: output.assetId,
        kind: 'image',
        mimeType: 'image/png',
        bytes: deterministicPng(seed, IMAGE_WIDTH, aspectOf(job.input.aspectRatio ?? (job.input.parameters as { aspect_ratio?: string } | undefined)?.aspect_ratio)),
      };
    case 'audio': {
      const music = job.operation === 'music_generation';
      const text = typeof job.input.text === 'string' ? job.input.text : '';
      const durationMs = music
        ? Math.min(Number(job.input.musicLengthMs ?? 4000) || 4000, 8000)
        : Math.min(Math.max(text.length * 60, 600), 8000);
      return { assetId: output.assetId, kind: 'audio', mimeType: 'audio/wav', bytes: deterministicWav(seed, durationMs, music) };
    }
    case 'json': {
      const result =
        job.operation === 'script_generation'
          ? { title: `Script for: ${String(job.input.prompt ?? '').slice(0, 60)}`, scenes: [{ index: 1, beat: 'opening', text: String(job.input.prompt ?? '') }] }
          : { skill_id: job.skillId, parameters: job.input.parameters ?? {}, result: 'completed by the local provider' };
      return { assetId: output.assetId, kind: 'json', mimeType: 'application/json', bytes: Buffer.from(JSON.stringify(result, null, 2)) };
    }
  }
}

export function createLocalProvider(options: LocalProviderOptions): RunProvider {
  return {
    name: 'local',
    async execute(job, { signal, progress }) {
      if (options.executionLog) appendFileSync(options.executionLog, `${job.runId} ${job.attempt}\n`);
      for (let step = 1; step <= STEPS; step += 1) {
        await abortableDelay(options.durationMs / STEPS, signal);
        progress(Math.round((step * 100) / STEPS), step === STEPS ? 'finishing' : `generating (${step}/${STEPS})`);
      }
      signal.throwIfAborted();
      return { assets: job.outputs.map((output, index) => produce(job, output, index)) };
    },
  };
}
