import { describe, expect, it } from 'vitest';
import { createAssetUrls } from '../../src/mcp/asset-urls.js';
import {
  cachedPayload,
  escapeJsonText,
  joinPayload,
  payloadPrefix,
  payloadWork,
  withMembers,
  type JsonPayload,
} from '../../src/shared/json-payload.js';

/**
 * Payloads built from cached leaves (src/shared/json-payload.ts): members added to a document share its leaves, so
 * its escaped text and bytes are made once; and every form of the result is exactly what flattening it would give.
 */

const bytesOf = (payload: JsonPayload, form: 'json' | 'escaped') => Buffer.concat(payload.chunks(form)).toString();

function expectConsistent(payload: JsonPayload): void {
  const json = bytesOf(payload, 'json');
  expect(JSON.parse(json)).toBeTypeOf('object');
  expect(payload.json).toBe(json);
  expect(bytesOf(payload, 'escaped')).toBe(escapeJsonText(json));
  expect(payload.escaped()).toBe(escapeJsonText(json));
}

const document = () =>
  joinPayload([
    '{"layout":',
    cachedPayload('{"revision":3,"nodes":[{"id":"a","data":{"content":"é😀\\n\\"q\\""}}]}'),
    '}',
  ]);

describe('withMembers', () => {
  it.each([
    ['a join that ends with its own closing brace', document],
    ['one flat leaf', () => cachedPayload('{"layout":{"revision":3},"text":"lone \\ud800 surrogate and 😀"}')],
    ['an empty object', () => cachedPayload('{}')],
    ['an empty object in two leaves', () => joinPayload(['{', '}'])],
  ])('adds members to %s, each form equal to the flattened text', (_name, make) => {
    const payload = make();
    const added = withMembers(payload, '"free_areas":[1,2],"presence":[{"name":"Ana 😀"}]');
    expectConsistent(added);
    const parsed = JSON.parse(added.json) as Record<string, unknown>;
    expect(parsed.free_areas).toEqual([1, 2]);
    expect(parsed.presence).toEqual([{ name: 'Ana 😀' }]);
    expect(withMembers(payload, '')).toBe(payload);
  });

  it('shares the document leaves and their bytes, so adding members twice escapes the document once', () => {
    const big = cachedPayload(`{"nodes":${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `node ${i}`))}}`);
    const doc = joinPayload(['{"layout":', big, '}']);
    payloadWork.reset();
    const first = withMembers(withMembers(doc, '"a":1'), '"changes":[]');
    const second = withMembers(doc, '"a":2');
    const firstChunks = first.chunks('escaped');
    const secondChunks = second.chunks('escaped');
    expect(firstChunks[1]).toBe(secondChunks[1]);
    expect(payloadWork.escapedChars).toBeLessThan(big.json.length * 1.1);
    expect(payloadWork.flattens).toBe(0);
    expectConsistent(first);
    expectConsistent(second);
  });

  it('opens a flat document once, not once per call', () => {
    const flat = cachedPayload(`{"signed":${JSON.stringify('x'.repeat(50_000))}}`);
    payloadWork.reset();
    for (let call = 0; call < 5; call += 1) withMembers(flat, `"call":${call}`).chunks('json');
    expect(payloadWork.encodedChars).toBeLessThan(60_000);
  });

  it('refuses a payload that is not a JSON object', () => {
    expect(() => withMembers(cachedPayload('[1,2]'), '"a":1')).toThrow(/not a JSON object/);
  });
});

describe('payloadPrefix', () => {
  it('reads the first characters across leaves without flattening', () => {
    const payload = withMembers(document(), '"more":true');
    payloadWork.reset();
    expect(payloadPrefix(payload, 25)).toBe(payload.json.slice(0, 25));
    expect(payloadPrefix(payload, 10_000)).toBe(payload.json);
  });
});

describe('asset URLs made absolute leaf by leaf', () => {
  it('rewrites the leaf holding a run output once and passes a payload without one unchanged', () => {
    const urls = createAssetUrls(() => 'https://canvas.example');
    const states = cachedPayload('{"runs":[{"url":"/assets/asset_0123456789abcdef"}]}');
    const doc = joinPayload(['{"node_states":', states, '}']);
    const first = urls.absolute(withMembers(doc, '"a":1'));
    const second = urls.absolute(withMembers(doc, '"a":2'));
    expect(JSON.parse(first.json)).toEqual({
      node_states: { runs: [{ url: 'https://canvas.example/assets/asset_0123456789abcdef' }] },
      a: 1,
    });
    expect(first.leaves[1]).toBe(second.leaves[1]);
    const plain = withMembers(cachedPayload('{"x":1}'), '"y":2');
    expect(urls.absolute(plain)).toBe(plain);
  });
});
