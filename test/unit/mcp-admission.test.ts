import { describe, expect, it } from 'vitest';
import { eraOf, isEraFrame, type MirroredHeaders } from '../../src/mcp/era-selection.js';

/**
 * Which protocol era serves a message, and what the 2026-07-28 era refuses before dispatch (src/mcp/era-selection.ts,
 * src/mcp/modern-era.ts): pure functions of the body and the mirrored headers, tested here without a server.
 */

const envelope = (extra: Record<string, unknown> = {}) => ({
  _meta: {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    ...extra,
  },
});
const headers = (values: Partial<MirroredHeaders> = {}): MirroredHeaders => ({
  protocolVersion: undefined,
  method: undefined,
  name: undefined,
  ...values,
});
const refusalOf = (result: ReturnType<typeof eraOf>) => {
  if (isEraFrame(result)) throw new Error('expected a refusal');
  const body = JSON.parse(result.body) as { error: { code: number; message: string } };
  return { status: result.status, code: body.error.code, message: body.error.message };
};

describe('choosing the era of a message', () => {
  it('serves a message without a _meta claim in the legacy era, and one with the envelope in the modern era', () => {
    const legacy = eraOf({ id: 1, method: 'tools/list', params: {} }, headers());
    expect(isEraFrame(legacy) && legacy.hasMethod('initialize')).toBe(true);
    const modern = eraOf(
      { id: 1, method: 'tools/list', params: envelope() },
      headers({ protocolVersion: '2026-07-28', method: 'tools/list' }),
    );
    expect(isEraFrame(modern) && modern.hasMethod('initialize')).toBe(false);
  });

  it.each([
    [
      'a header that disagrees with the body',
      { protocolVersion: '2025-06-18', method: 'tools/list' },
      'tools/list',
      envelope(),
      400,
      -32020,
    ],
    ['a missing Mcp-Method header', { protocolVersion: '2026-07-28' }, 'tools/list', envelope(), 400, -32020],
    [
      'a tool call without Mcp-Name',
      { protocolVersion: '2026-07-28', method: 'tools/call' },
      'tools/call',
      { name: 'get_canvas', ...envelope() },
      400,
      -32020,
    ],
    [
      'initialize, removed in 2026-07-28',
      { protocolVersion: '2026-07-28', method: 'initialize' },
      'initialize',
      envelope(),
      404,
      -32601,
    ],
  ])('refuses %s', (_name, mirrored, method, params, status, code) => {
    expect(refusalOf(eraOf({ id: 7, method, params }, headers(mirrored)))).toMatchObject({ status, code });
  });

  it('refuses a modern header on a request without the envelope, naming what is missing', () => {
    const refused = refusalOf(
      eraOf({ id: 2, method: 'tools/list', params: {} }, headers({ protocolVersion: '2026-07-28' })),
    );
    expect(refused).toMatchObject({ status: 400, code: -32602 });
    expect(refused.message).toContain('io.modelcontextprotocol/protocolVersion');
  });

  it('accepts a base64 Mcp-Name that decodes to the tool named in the body', () => {
    const name = `=?base64?${Buffer.from('get_canvas').toString('base64')}?=`;
    const admitted = eraOf(
      { id: 3, method: 'tools/call', params: { name: 'get_canvas', arguments: {}, ...envelope() } },
      headers({ protocolVersion: '2026-07-28', method: 'tools/call', name }),
    );
    expect(isEraFrame(admitted)).toBe(true);
  });
});
