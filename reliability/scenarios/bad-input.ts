import { join } from 'node:path';
import { NODE_TYPES } from '../../src/contract/index.js';
import {
  agentHeaders,
  demoCredentials,
  errorCode,
  mcpCall,
  mcpRaw,
  serve,
  stop,
  type CallAnswer,
  type Row,
} from '../harness.js';
import { scenarioStore } from '../stores.js';

/**
 * Hundreds of invalid tool calls and malformed HTTP bodies: every one is refused cleanly (a tool error or a 4xx
 * JSON-RPC error with a code), none answers 5xx or `internal`, and the server is still well afterwards.
 */

const ids = { project_id: 'demo', canvas_id: 'main' };
const textNode = { id: 'bad-input', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'x' } };

const VALID: Record<string, Record<string, unknown>> = {
  list_zone_skills: {},
  get_canvas: ids,
  create_canvas_node: { ...ids, base_revision: 0, node: textNode },
  delete_canvas_node: { ...ids, base_revision: 0, node_id: 'frame-1' },
  get_canvas_node_run: { ...ids, run_id: 'run_missing' },
  cancel_canvas_node_run: { ...ids, run_id: 'run_missing' },
};

const BAD_STRINGS: unknown[] = [
  '',
  '.',
  '..',
  'a/b',
  'a\\b',
  'a?b',
  'a#b',
  'a%b',
  'a b',
  'a\u0000b',
  'a\u007fb',
  'x'.repeat(256),
  'a\ud800',
  '\udfff',
  7,
  null,
  true,
  [],
  {},
  '  ',
];
const BAD_VALUES: unknown[] = [null, 0, -1, 1.5, '1', 'x', [], {}, true, 2 ** 53, -0.0001, { $ref: '#' }];

function mutations(tool: string, valid: Record<string, unknown>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const key of Object.keys(valid)) {
    const { [key]: _removed, ...without } = valid;
    out.push(without);
    for (const bad of key.endsWith('_id') ? BAD_STRINGS : BAD_VALUES) out.push({ ...valid, [key]: bad });
  }
  out.push({ ...valid, extra: 1 });
  if (tool === 'create_canvas_node') {
    const node = valid.node as Record<string, unknown>;
    for (const patch of [
      { type: 'textNode' },
      { type: 'imageGenNode' },
      { position: { x: 0 } },
      { position: { x: 0, y: 0, z: 0 } },
      { width: 0 },
      { style: { zIndex: 1.5 } },
      { extent: 'canvas' },
      { parentId: 'ghost' },
      { parentId: 'bad-input' },
      { data: { content: 1 } },
      { data: { content: 'x', extra: true } },
      { data: { content: 'x'.repeat(100_001) } },
      { data: { content: 'x', displayName: null } },
      { id: 'a\ud800' },
      { hidden: 'yes' },
    ]) {
      out.push({ ...valid, node: { ...node, ...patch } });
    }
    for (const type of NODE_TYPES) {
      for (const data of [
        { unknown: 1 },
        { displayName: 7 },
        { externalRunStatus: 'done' },
        { externalRunTriggeredBy: 'robot' },
        { content: 'x', prompt: ['x'] },
        [],
      ]) {
        out.push({ ...valid, node: { ...node, type, data } });
      }
    }
    for (const bad of BAD_STRINGS) {
      out.push({ ...valid, node: { ...node, id: bad } }, { ...valid, node: { ...node, parentId: bad } });
    }
    for (const bad of BAD_VALUES) {
      out.push(
        { ...valid, node: { ...node, position: bad } },
        { ...valid, node: { ...node, data: bad } },
        { ...valid, node: bad },
      );
      for (const field of [
        'width',
        'height',
        'style',
        'extent',
        'expandParent',
        'hidden',
        'selected',
        'draggable',
        'selectable',
        'connectable',
        'deletable',
        'zIndex',
      ]) {
        if (
          !(field === 'zIndex' && Number.isInteger(bad)) &&
          !(
            ['expandParent', 'hidden', 'selected', 'draggable', 'selectable', 'connectable', 'deletable'].includes(
              field,
            ) && typeof bad === 'boolean'
          )
        ) {
          out.push({ ...valid, node: { ...node, [field]: bad } });
        }
      }
      for (const type of NODE_TYPES)
        out.push({ ...valid, node: { ...node, type, data: { displayName: bad === null ? 5 : bad } } });
    }
  }
  return out;
}

const MALFORMED_BODIES: Array<string | Buffer> = [
  '',
  '{',
  'null',
  '[]',
  '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
  '{"jsonrpc":"1.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":{},"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":7}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_canvas","arguments":"x"}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_canvas","arguments":[]}}',
  '{"jsonrpc":"2.0","id":1,"method":"nope"}',
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_canvas","arguments":${'['.repeat(50_000)}${']'.repeat(50_000)}}}`,
  Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
  '{"jsonrpc":"2.0","id":1,"method":"ping"}garbage',
  '\u0000\u0001',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_canvas","arguments":{"project_id":"demo","canvas_id":"main","__proto__":{"x":1}}}}',
];

function clean(answer: CallAnswer): boolean {
  if (answer.transportError || answer.status >= 500) return false;
  if (errorCode(answer) === 'internal') return false;
  return answer.isError || answer.rpcError !== undefined || answer.status >= 400;
}

export async function badInput(): Promise<Row> {
  const store = await scenarioStore('sqlite');
  const served = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve.log'));
  try {
    const { token, chatRun } = await demoCredentials(served.logFile);
    const headers = agentHeaders(token, chatRun);
    let total = 0;
    let cleanCount = 0;
    let fiveXX = 0;
    let internal = 0;
    const record = (answer: CallAnswer) => {
      total += 1;
      if (clean(answer)) cleanCount += 1;
      if (answer.status >= 500 || answer.transportError) fiveXX += 1;
      if (errorCode(answer) === 'internal') internal += 1;
    };
    for (const [tool, valid] of Object.entries(VALID)) {
      for (const args of mutations(tool, valid)) record(await mcpCall(served.url, headers, tool, args));
    }
    for (const body of MALFORMED_BODIES) record(await mcpRaw(served.url, headers, body));
    for (const contentType of [
      'text/plain',
      'application/json; charset=utf-16',
      'application/json-patch+json',
      'multipart/form-data',
      '',
    ]) {
      record(
        await mcpRaw(
          served.url,
          { ...headers, 'content-type': contentType },
          '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        ),
      );
    }
    for (const accept of ['text/html', 'image/png', 'application/xml', 'text/plain']) {
      record(await mcpRaw(served.url, { ...headers, accept }, '{"jsonrpc":"2.0","id":1,"method":"ping"}'));
    }
    for (const version of ['2024-11-05', '1999-01-01', 'latest', '2025-06-18x', '']) {
      record(
        await mcpRaw(
          served.url,
          { ...headers, 'mcp-protocol-version': version || ' ' },
          '{"jsonrpc":"2.0","id":1,"method":"nope"}',
        ),
      );
    }
    for (const method of [
      'resources/read',
      'prompts/get',
      'completion/complete',
      'logging/setLevel',
      'tools/call ',
      'TOOLS/LIST',
    ]) {
      record(await mcpRaw(served.url, headers, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} })));
    }
    const stillWell = !(await mcpCall(served.url, headers, 'get_canvas', ids)).isError;
    const percent = ((cleanCount / total) * 100).toFixed(1);
    return {
      scenario: `bad input: ${total} invalid calls and bodies`,
      store: 'sqlite',
      refusedCleanly: `${percent}%`,
      fiveXX,
      internal,
      notes: stillWell ? 'server well afterwards' : 'SERVER NOT WELL AFTERWARDS',
      pass: cleanCount === total && fiveXX === 0 && internal === 0 && stillWell,
    };
  } finally {
    await stop(served.child);
    store.destroy();
  }
}
