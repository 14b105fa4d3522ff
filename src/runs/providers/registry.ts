import type { RunOperation } from '../../contract/index.js';
import { createFalProvider } from './hosted/fal-provider.js';
import { createReplicateProvider } from './hosted/replicate-provider.js';
import { createLocalProvider } from './local-provider.js';
import { createOpenAiImagesProvider } from './openai-images-provider.js';
import { createOpenAiSpeechProvider } from './openai-speech-provider.js';
import type { RunProvider } from './provider.js';
import { withRedactedMessages } from './redaction.js';

/**
 * Which provider runs which operation (docs/runs.md, "Providers"): image generation may go to an OpenAI-compatible
 * images API, Replicate or fal; speech to an OpenAI-compatible speech API; video and storyboard sheets to Replicate or
 * fal. Everything not chosen, and everything else, runs on the offline local provider.
 */
export interface ProviderSettings {
  imageProvider: 'local' | 'openai' | 'replicate' | 'fal';
  speechProvider?: 'local' | 'openai';
  videoProvider?: 'local' | 'replicate' | 'fal';
  storyboardProvider?: 'local' | 'replicate' | 'fal';
  localDurationMs: number;
  localExecutionLog?: string | undefined;
  openai?: { baseUrl: string; apiKey: string; model: string; speechModel?: string; speechVoice?: string } | undefined;
  replicate?: { apiToken: string; baseUrl: string; models: Partial<Record<RunOperation, string>> } | undefined;
  fal?: { apiKey: string; queueUrl: string; models: Partial<Record<RunOperation, string>> } | undefined;
  /** How often a hosted provider's queued or running request is read again. */
  pollIntervalMs?: number;
  /** Which models take the elements' reference pictures, in which input (the `referenceInputs` setting). */
  referenceInputs?: Readonly<Record<string, string>>;
}

export type ProviderRegistry = (operation: RunOperation) => RunProvider;

export function createProviderRegistry(settings: ProviderSettings): ProviderRegistry {
  const local = createLocalProvider({ durationMs: settings.localDurationMs, executionLog: settings.localExecutionLog });
  const { openai, replicate, fal, pollIntervalMs, referenceInputs } = settings;
  const hosted = {
    replicate: replicate ? createReplicateProvider({ ...replicate, pollIntervalMs, referenceInputs }) : local,
    fal: fal ? createFalProvider({ ...fal, pollIntervalMs, referenceInputs }) : local,
  };
  const pick = (choice: 'local' | 'replicate' | 'fal' | undefined) =>
    choice === 'replicate' || choice === 'fal' ? hosted[choice] : local;
  const byOperation: Partial<Record<RunOperation, RunProvider>> = {
    image_generation:
      settings.imageProvider === 'openai'
        ? openai
          ? createOpenAiImagesProvider({ ...openai, referenceInputs })
          : local
        : pick(settings.imageProvider),
    speech_generation:
      settings.speechProvider === 'openai' && openai
        ? createOpenAiSpeechProvider({
            ...openai,
            model: openai.speechModel ?? 'gpt-4o-mini-tts',
            voice: openai.speechVoice,
          })
        : local,
    video_generation: pick(settings.videoProvider),
    storyboard_generation: pick(settings.storyboardProvider),
  };
  // What a provider says is stored and shown: never with a key in it (docs/security.md, "Provider keys").
  const secrets = [openai?.apiKey, replicate?.apiToken, fal?.apiKey].filter((secret): secret is string => !!secret);
  const redacted = new Map<RunProvider, RunProvider>();
  const guarded = (provider: RunProvider) => {
    if (!redacted.has(provider)) redacted.set(provider, withRedactedMessages(provider, secrets));
    return redacted.get(provider)!;
  };
  return (operation) => guarded(byOperation[operation] ?? local);
}
