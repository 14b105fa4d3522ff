import type { RunOperation } from '../../contract/index.js';
import { createLocalProvider } from './local-provider.js';
import { createOpenAiImagesProvider } from './openai-images-provider.js';
import { createOpenAiSpeechProvider } from './openai-speech-provider.js';
import type { RunProvider } from './provider.js';

/**
 * Which provider runs which operation: image generation may go to an images API and speech to a speech API (both
 * OpenAI-compatible, one key and base URL); everything else runs locally.
 */
export interface ProviderSettings {
  imageProvider: 'local' | 'openai';
  speechProvider?: 'local' | 'openai';
  localDurationMs: number;
  localExecutionLog?: string | undefined;
  openai?: { baseUrl: string; apiKey: string; model: string; speechModel?: string; speechVoice?: string } | undefined;
}

export type ProviderRegistry = (operation: RunOperation) => RunProvider;

export function createProviderRegistry(settings: ProviderSettings): ProviderRegistry {
  const local = createLocalProvider({ durationMs: settings.localDurationMs, executionLog: settings.localExecutionLog });
  const images = settings.imageProvider === 'openai' && settings.openai ? createOpenAiImagesProvider(settings.openai) : local;
  const speech =
    settings.speechProvider === 'openai' && settings.openai
      ? createOpenAiSpeechProvider({ ...settings.openai, model: settings.openai.speechModel ?? 'gpt-4o-mini-tts', voice: settings.openai.speechVoice })
      : local;
  return (operation) => (operation === 'image_generation' ? images : operation === 'speech_generation' ? speech : local);
}
