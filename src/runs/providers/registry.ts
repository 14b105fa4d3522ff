import type { RunOperation } from '../../contract/index.js';
import { createLocalProvider } from './local-provider.js';
import { createOpenAiImagesProvider } from './openai-images-provider.js';
import type { RunProvider } from './provider.js';

/** Which provider runs which operation: image generation may go to an images API, everything else runs locally. */
export interface ProviderSettings {
  imageProvider: 'local' | 'openai';
  localDurationMs: number;
  localExecutionLog?: string | undefined;
  openai?: { baseUrl: string; apiKey: string; model: string } | undefined;
}

export type ProviderRegistry = (operation: RunOperation) => RunProvider;

export function createProviderRegistry(settings: ProviderSettings): ProviderRegistry {
  const local = createLocalProvider({ durationMs: settings.localDurationMs, executionLog: settings.localExecutionLog });
  const images = settings.imageProvider === 'openai' && settings.openai ? createOpenAiImagesProvider(settings.openai) : local;
  return (operation) => (operation === 'image_generation' ? images : local);
}
