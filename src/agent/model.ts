import { readFileSync } from 'node:fs';
import type { LanguageModel } from 'ai';
import type { ChatModelStatus } from '../contract/index.js';
import { ConfigError, type ServeConfig } from '../config/index.js';

/**
 * The canvas chat's model, through the AI SDK's provider packages (never a hand-written client): Anthropic, OpenAI
 * (its Chat Completions API), or any OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp's server,
 * OpenRouter) at a base URL. The key comes from the environment or a file, never a flag, and is never logged.
 */

export type ModelProvider = 'anthropic' | 'openai' | 'openai-compatible';

export interface ChatModel {
  provider: ModelProvider;
  modelId: string;
  baseUrl: string | null;
  /**
   * The model, through its provider package: imported at the first turn of a process (with the AI SDK), not at its
   * start; made once.
   */
  languageModel(): Promise<LanguageModel>;
}

export const CHAT_SETUP_HINT =
  'No model is configured for the chat: start the server with CANVAS_MCP_MODEL_PROVIDER (anthropic, openai or openai-compatible), CANVAS_MCP_MODEL and CANVAS_MCP_MODEL_API_KEY set.';

type ModelSettings = Pick<ServeConfig, 'modelProvider' | 'model' | 'modelBaseUrl' | 'modelApiKey' | 'modelApiKeyFile'>;

function apiKeyOf(settings: ModelSettings): string | undefined {
  if (settings.modelApiKey) return settings.modelApiKey;
  if (!settings.modelApiKeyFile) return undefined;
  try {
    const key = readFileSync(settings.modelApiKeyFile, 'utf8').trim();
    if (key) return key;
    throw new ConfigError([
      `--model-api-key-file (CANVAS_MCP_MODEL_API_KEY_FILE): ${settings.modelApiKeyFile} is empty`,
    ]);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError([
      `--model-api-key-file (CANVAS_MCP_MODEL_API_KEY_FILE): cannot read ${settings.modelApiKeyFile}`,
    ]);
  }
}

/** The configured model, or null when none is (the chat then says what to set). */
export function chatModelOf(settings: ModelSettings): ChatModel | null {
  if (!settings.modelProvider || !settings.model) return null;
  const apiKey = apiKeyOf(settings);
  const baseURL = settings.modelBaseUrl?.replace(/\/+$/, '');
  if ((settings.modelProvider === 'anthropic' || settings.modelProvider === 'openai') && !apiKey) {
    throw new ConfigError([
      `CANVAS_MCP_MODEL_API_KEY: is required with the ${settings.modelProvider} model provider (or --model-api-key-file)`,
    ]);
  }
  const { modelProvider: provider, model: modelId } = settings;
  const make = async (): Promise<LanguageModel> => {
    switch (provider) {
      case 'anthropic': {
        const { createAnthropic } = await import('@ai-sdk/anthropic');
        return createAnthropic({ apiKey, ...(baseURL ? { baseURL } : {}) })(modelId);
      }
      case 'openai': {
        const { createOpenAI } = await import('@ai-sdk/openai');
        // Chat Completions, the API every OpenAI-compatible server speaks too.
        return createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}) }).chat(modelId);
      }
      case 'openai-compatible': {
        const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
        return createOpenAICompatible({
          name: 'openai-compatible',
          baseURL: baseURL!,
          ...(apiKey ? { apiKey } : {}),
          includeUsage: true,
        })(modelId);
      }
    }
  };
  let made: Promise<LanguageModel> | undefined;
  return { provider, modelId, baseUrl: baseURL ?? null, languageModel: () => (made ??= make()) };
}

export function chatModelStatus(model: ChatModel | null): ChatModelStatus {
  if (!model) return { configured: false, provider: null, model: null, message: CHAT_SETUP_HINT };
  return {
    configured: true,
    provider: model.provider,
    model: model.modelId,
    message: `The chat answers with ${model.modelId} (${model.provider}${model.baseUrl ? ` at ${model.baseUrl}` : ''}).`,
  };
}
