import { z } from 'zod';
import { HttpUrl, Int, setting } from '../setting.js';

/** The canvas chat's model and budgets. */
export const CHAT_SETTINGS = {
  // The canvas chat's model (docs/chat.md): none configured, the chat panel says what to set.
  modelProvider: setting({
    schema: z.enum(['anthropic', 'openai', 'openai-compatible']),
    arg: 'name',
    help: "the canvas chat's model provider: anthropic, openai or openai-compatible (key in CANVAS_MCP_MODEL_API_KEY)",
    docs: "the canvas chat's model provider: `anthropic`, `openai` or `openai-compatible` (docs/chat.md)",
    commands: ['doctor'],
  }),
  model: setting({
    schema: z.string().min(1),
    arg: 'id',
    help: "the canvas chat's model id (e.g. claude-sonnet-4-5, gpt-4.1, llama3.1)",
    docs: 'its model id',
    commands: ['doctor'],
  }),
  modelBaseUrl: setting({
    schema: HttpUrl,
    arg: 'url',
    help: "the model API's base URL (required for openai-compatible: Ollama, vLLM, LM Studio, OpenRouter)",
    docs: 'its API base URL; required for `openai-compatible`',
    shownDefault: "the provider's",
    commands: ['doctor'],
  }),
  modelApiKey: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: "the chat model's API key",
    docs: 'its key: never on the command line, never logged; or `--model-api-key-file` (`CANVAS_MCP_MODEL_API_KEY_FILE`)',
  }),
  modelApiKeyFile: setting({
    schema: z.string().min(1),
    arg: 'path',
    help: 'read the model API key from this file instead of CANVAS_MCP_MODEL_API_KEY',
    commands: ['doctor'],
  }),
  chatMaxSteps: setting({
    schema: Int(1, 200),
    default: 24,
    arg: 'n',
    help: "tool steps the chat's agent may take in one turn",
  }),
  chatTokenBudget: setting({
    schema: Int(1000, 100_000_000),
    default: 400_000,
    arg: 'n',
    help: 'model tokens one chat conversation may use',
  }),
  chatPersonTokensPerDay: setting({
    schema: Int(1000, 1_000_000_000),
    default: 2_000_000,
    arg: 'n',
    help: "model tokens one person's chat conversations may use in 24 hours, on every canvas",
    docs: "model tokens one person's chat conversations may use in any 24 hours, on every canvas and server (a provider that reports no usage is counted from the bytes sent and received)",
  }),
  chatProjectTokensPerDay: setting({
    schema: Int(1000, 10_000_000_000),
    default: 10_000_000,
    arg: 'n',
    help: "model tokens one project's chat conversations may use in 24 hours",
  }),
  chatOpenConversations: setting({
    schema: Int(1, 10_000),
    default: 50,
    arg: 'n',
    help: 'chat conversations one person may have open (not ended) at once',
  }),
  chatApprovalMinutes: setting({
    schema: Int(1, 24 * 60),
    default: 10,
    arg: 'n',
    help: 'how long the chat waits for a person to approve a paid run',
  }),
};
