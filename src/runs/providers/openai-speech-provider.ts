import { ProviderError, type RunProvider } from './provider.js';

/**
 * An audioNode's speech through an OpenAI-compatible speech API (`POST {baseUrl}/audio/speech`), by the AI SDK's OpenAI
 * provider rather than a hand-written client. The SDK retries 429 and 5xx answers with exponential backoff (honouring
 * `retry-after`), at most `maxRetries` times; what still fails then is a `provider_error` naming the API and its HTTP
 * status, not tried again by the run engine (the cap is the SDK's). The key goes to that API only.
 */
export interface OpenAiSpeechOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** The voice when the node names none (`voiceRef.voiceId`). */
  voice?: string;
  maxRetries?: number;
  timeoutMs?: number;
}

export const OPENAI_SPEECH_PROVIDER = 'openai-speech';

/** The AI SDK and its OpenAI provider, imported at the first speech run of a process, not when it starts. */
async function speechSdk(options: OpenAiSpeechOptions) {
  const [ai, { createOpenAI }] = await Promise.all([import('ai'), import('@ai-sdk/openai')]);
  const openai = createOpenAI({ baseURL: options.baseUrl.replace(/\/+$/, ''), apiKey: options.apiKey, name: 'openai' });
  return { ai, model: openai.speech(options.model) };
}
type SpeechSdk = Awaited<ReturnType<typeof speechSdk>>;

export function createOpenAiSpeechProvider(options: OpenAiSpeechOptions): RunProvider {
  let sdk: Promise<SpeechSdk> | undefined;
  return {
    name: OPENAI_SPEECH_PROVIDER,
    async execute(job, { signal, progress }) {
      if (job.operation !== 'speech_generation') {
        throw new ProviderError('unsupported_operation', `The speech API cannot run ${job.operation}.`, false);
      }
      const text = typeof job.input.text === 'string' ? job.input.text.trim() : '';
      if (!text)
        throw new ProviderError(
          'invalid_input',
          'This audio node has no text to speak: write its text, then run it again.',
          false,
        );
      const { ai, model } = await (sdk ??= speechSdk(options));
      progress(5, 'sent to the speech API');
      let audio: Uint8Array;
      try {
        const result = await ai.experimental_generateSpeech({
          model,
          text,
          voice: voiceIdOf(job.input.voiceRef) ?? options.voice ?? 'alloy',
          outputFormat: 'mp3',
          ...(typeof job.input.emotionPrompt === 'string' && job.input.emotionPrompt
            ? { instructions: job.input.emotionPrompt }
            : {}),
          maxRetries: options.maxRetries ?? 2,
          abortSignal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs ?? 120_000)]),
        });
        audio = result.audio.uint8Array;
      } catch (error) {
        if (signal.aborted) throw signal.reason as Error;
        throw speechFailure(error, ai);
      }
      progress(90, 'storing the audio');
      const [output] = job.outputs;
      if (!output) throw new ProviderError('provider_error', 'The run asked for no audio output.', false);
      return {
        assets: [{ assetId: output.assetId, kind: output.kind, mimeType: 'audio/mpeg', bytes: Buffer.from(audio) }],
        model: options.model,
      };
    },
  };
}

/** The node's voice reference names the provider's voice in `voiceId` (docs/runs.md); other scopes fall back. */
function voiceIdOf(voiceRef: unknown): string | null {
  const voiceId = (voiceRef as { voiceId?: unknown } | undefined)?.voiceId;
  return typeof voiceId === 'string' && voiceId.trim() ? voiceId.trim() : null;
}

/** The SDK's failure as ours: which API, which HTTP status, and its message (never the request, which holds the key). */
function speechFailure(error: unknown, { APICallError, RetryError }: SpeechSdk['ai']): ProviderError {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const attempts = RetryError.isInstance(error) ? ` after ${error.errors.length} attempts` : '';
  if (APICallError.isInstance(last)) {
    const status = last.statusCode;
    const detail = apiMessage(last.responseBody);
    if (status === undefined)
      return new ProviderError('provider_unavailable', `The speech API could not be reached${attempts}.`, false);
    return new ProviderError(
      'provider_error',
      `The speech API answered HTTP ${status}${attempts}${detail ? `: ${detail}` : ''}.`,
      false,
    );
  }
  if (last instanceof Error && last.name === 'TimeoutError')
    return new ProviderError('provider_unavailable', 'The speech API did not answer in time.', false);
  return new ProviderError(
    'provider_error',
    `The speech API failed: ${last instanceof Error ? last.message : String(last)}`,
    false,
  );
}

function apiMessage(body: string | undefined): string | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    return typeof parsed.error?.message === 'string' ? parsed.error.message.slice(0, 300) : null;
  } catch {
    return null;
  }
}
