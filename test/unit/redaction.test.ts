import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/runs/providers/redaction.js';

/** What a provider says is stored and shown: never with a key in it (src/runs/providers/redaction.ts). */

describe('redacting provider messages', () => {
  it.each([
    [
      'a configured secret, wherever it stands',
      'invalid key abcd-secret-1234 for model x',
      'invalid key [redacted] for model x',
    ],
    [
      'an OpenAI-style key',
      'Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOp1234.',
      'Incorrect API key provided: [redacted].',
    ],
    ['an Anthropic-style key', 'key sk-ant-api03-ZZZZZZZZZZZZZZZZ refused', 'key [redacted] refused'],
    ['a Replicate token', 'token r8_ABCDEFGHIJKLMNOPQRSTU is not valid', 'token [redacted] is not valid'],
    [
      'an Authorization header echoed back',
      'sent Authorization: Bearer abc.def.ghi-jkl',
      'sent Authorization: [redacted]',
    ],
    [
      "fal's key scheme",
      'header was Key 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0:0123456789abcdef0123',
      'header was [redacted]',
    ],
    ['a key=value pair', 'GET /v1?api_key=hunter2hunter2&x=1 failed', 'GET /v1?api_key=[redacted]&x=1 failed'],
  ])('removes %s', (_name, text, clean) => {
    expect(redactSecrets(text, ['abcd-secret-1234'])).toBe(clean);
  });

  it('leaves ordinary words, run ids and asset ids alone', () => {
    const text = 'The run run_Zx81kLmNoPq timed out while asset_0000000000000001 was uploading; token limit reached.';
    expect(redactSecrets(text, [])).toBe(text);
  });
});
