import {
  CallToolRequestSchema,
  ClientCapabilitiesSchema,
  ImplementationSchema,
  JSONRPCRequestSchema,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBareImplementation, isNoCapabilities, plainRequest, plainToolCall } from '../../src/mcp/plain-envelope.js';

/** Messages near the everyday shape: each part sometimes right, sometimes subtly wrong. */
const jsonValue = fc.jsonValue({ maxDepth: 2 });
const envelope = fc.record(
  {
    jsonrpc: fc.constantFrom<unknown>('2.0', '1.0', 2, null),
    id: fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.constant(2 ** 60), fc.boolean()),
    method: fc.oneof(fc.constantFrom<unknown>('tools/call', 'tools/list', 'ping'), fc.integer()),
    params: fc.oneof(
      fc.record(
        {
          name: fc.oneof(fc.constantFrom<unknown>('get_canvas', ''), fc.integer()),
          arguments: fc.oneof(fc.dictionary(fc.string(), jsonValue), fc.array(jsonValue), fc.constant(null)),
          _meta: fc.oneof(
            fc.dictionary(fc.string(), jsonValue),
            // The members RequestMetaSchema checks, right and wrong, beside the 2026-07-28 envelope's own.
            fc.record(
              {
                progressToken: fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null)),
                'io.modelcontextprotocol/related-task': fc.oneof(fc.record({ taskId: fc.string() }), fc.string()),
                'io.modelcontextprotocol/protocolVersion': fc.constant('2026-07-28'),
              },
              { requiredKeys: [] },
            ),
            fc.constant(null),
            fc.string(),
          ),
          task: fc.oneof(fc.record({ ttl: fc.integer() }), fc.string()),
          extra: jsonValue,
        },
        { requiredKeys: [] },
      ),
      fc.array(jsonValue),
      fc.constant(null),
      fc.string(),
    ),
    result: jsonValue,
  },
  { requiredKeys: [] },
);

describe('the hand-checked envelope', () => {
  it('accepts a request only when the SDK schema accepts it, and hands on the same request', () => {
    fc.assert(
      fc.property(envelope, (message) => {
        const plain = plainRequest(message);
        if (plain === null) return;
        const parsed = JSONRPCRequestSchema.safeParse(message);
        expect(parsed.success).toBe(true);
        expect(plain).toEqual(parsed.data);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads a tool call only when the SDK schema accepts it, with the same name and arguments', () => {
    fc.assert(
      fc.property(envelope, (message) => {
        const request = message as unknown as JSONRPCRequest;
        const plain = plainToolCall(request);
        if (plain === null) return;
        const parsed = CallToolRequestSchema.safeParse(request);
        expect(parsed.success).toBe(true);
        expect(plain.name).toBe(parsed.data!.params.name);
        expect(plain.arguments).toEqual(parsed.data!.params.arguments);
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the everyday get_canvas call by hand in both eras, and leaves checked _meta members, task and odd ids to the schema', () => {
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'get_canvas', arguments: { project_id: 'p', canvas_id: 'c' } },
    };
    expect(plainRequest(call)).toBe(call);
    expect(plainToolCall(call as JSONRPCRequest)).toEqual({ name: 'get_canvas', arguments: call.params.arguments });
    const modern = {
      ...call,
      params: {
        ...call.params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    expect(plainRequest(modern)).toBe(modern);
    expect(plainToolCall(modern as JSONRPCRequest)).toEqual({ name: 'get_canvas', arguments: call.params.arguments });
    expect(plainRequest({ ...call, params: { ...call.params, _meta: { progressToken: 1 } } })).toBeNull();
    expect(plainRequest({ ...call, params: { ...call.params, _meta: [] } })).toBeNull();
    expect(plainToolCall({ ...call, params: { ...call.params, task: { ttl: 1 } } } as JSONRPCRequest)).toBeNull();
    expect(plainRequest({ ...call, id: 1.5 })).toBeNull();
    expect(plainRequest({ ...call, id: 2 ** 60 })).toBeNull();
    expect(plainRequest({ ...call, extra: 1 })).toBeNull();
    expect(plainToolCall({ ...call, params: { name: 'get_canvas', arguments: [] } } as unknown as JSONRPCRequest)).toBe(
      null,
    );
  });

  it('passes a 2026-07-28 envelope’s capabilities and client info by hand only when the SDK schemas accept them', () => {
    const member = fc.oneof(
      fc.constant({}),
      fc.record({ name: fc.oneof(fc.string(), fc.integer()), version: fc.oneof(fc.string(), fc.constant(null)) }),
      fc.record({ name: fc.string(), version: fc.string(), title: jsonValue }, { requiredKeys: ['name'] }),
      fc.dictionary(fc.string(), jsonValue),
      jsonValue,
    );
    fc.assert(
      fc.property(member, (value) => {
        if (isNoCapabilities(value)) expect(ClientCapabilitiesSchema.safeParse(value).success).toBe(true);
        if (isBareImplementation(value)) expect(ImplementationSchema.safeParse(value).success).toBe(true);
      }),
      { numRuns: 5000 },
    );
    expect(isNoCapabilities({})).toBe(true);
    expect(isBareImplementation({ name: 'claude', version: '1.0' })).toBe(true);
  });
});
