import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ERROR_CODE_NAMES,
  PUBLISHED_TOOL_NAMES,
  TOOL_CONTRACTS,
  publishedToolSchemas,
} from '../../src/contract/index.js';
import { accept, expectVerdict, refuse } from '../support/dual-validator.js';
import { node } from '../support/node-fixtures.js';

const ids = { project_id: 'demo', canvas_id: 'main' };

describe('tool argument shapes (spec: Tool argument shapes)', () => {
  it.each([
    ['list_zone_skills', accept('an empty object', {})],
    ['list_zone_skills', refuse('any property', { project_id: 'demo' })],
    ['get_canvas', accept('project_id and canvas_id', ids)],
    ['get_canvas', refuse('an unknown property', { ...ids, revision: 1 })],
    ['get_canvas', refuse('a missing canvas_id', { project_id: 'demo' })],
    ['create_canvas_node', accept('the required arguments', { ...ids, node: node('groupNode'), base_revision: 0 })],
    [
      'create_canvas_node',
      accept('with client_save_id', { ...ids, node: node('groupNode'), base_revision: 0, client_save_id: 'save-1' }),
    ],
    ['create_canvas_node', refuse('without node', { ...ids, base_revision: 0 })],
    ['create_canvas_node', refuse('without base_revision', { ...ids, node: node('groupNode') })],
    [
      'create_canvas_node',
      refuse('an unknown property', { ...ids, node: node('groupNode'), base_revision: 0, force: true }),
    ],
    ['create_canvas_node', refuse('a layout instead of a node', { ...ids, base_revision: 0, layout: { nodes: [] } })],
    ['delete_canvas_node', accept('the required arguments', { ...ids, node_id: 'n1', base_revision: 4 })],
    ['delete_canvas_node', refuse('a node name instead of node_id', { ...ids, name: 'Scene 1', base_revision: 4 })],
    ['get_canvas_node_run', accept('the required arguments', { ...ids, run_id: 'run_1' })],
    ['get_canvas_node_run', refuse('an agent_run_id property', { ...ids, run_id: 'r', agent_run_id: 'x' })],
    ['cancel_canvas_node_run', accept('the required arguments', { ...ids, run_id: 'run_1' })],
    ['cancel_canvas_node_run', refuse('a missing run_id', ids)],
  ] as const)('%s: $name → valid: $valid', (tool, { value, valid }) => {
    expectVerdict(TOOL_CONTRACTS[tool].input, value, valid);
  });
});

describe('published JSON Schema', () => {
  const ajv = new Ajv({ allErrors: true });

  it('lists exactly the six tools in the spec order', () => {
    expect(publishedToolSchemas().map((tool) => tool.name)).toEqual([
      'list_zone_skills',
      'get_canvas',
      'create_canvas_node',
      'delete_canvas_node',
      'get_canvas_node_run',
      'cancel_canvas_node_run',
    ]);
  });

  it.each(PUBLISHED_TOOL_NAMES)('%s: input and output schemas are objects that ajv compiles', (name) => {
    const tool = publishedToolSchemas().find((entry) => entry.name === name)!;
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.inputSchema.additionalProperties).toBe(false);
    expect(tool.outputSchema.type).toBe('object');
    expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
    expect(() => ajv.compile(tool.outputSchema)).not.toThrow();
  });

  it.each(PUBLISHED_TOOL_NAMES)(
    '%s: the output schema accepts the error result and refuses an object that is neither',
    (name) => {
      const validate = ajv.compile(publishedToolSchemas().find((tool) => tool.name === name)!.outputSchema);
      const errorResult = {
        error: { code: 'revision_conflict', message: 'stale', retryable: true, details: { current_revision: 3 } },
      };
      expect(validate(errorResult)).toBe(true);
      const successKeys = (TOOL_CONTRACTS[name].success as unknown as { shape: Record<string, unknown> }).shape;
      if (Object.keys(successKeys).length > 0) expect(validate({ unrelated: true })).toBe(false);
    },
  );

  it('publishes every shared subschema once, under $defs, with local refs and no type arrays', () => {
    const text = JSON.stringify(publishedToolSchemas());
    expect(text).not.toContain('"definitions"');
    expect(text).not.toMatch(/"type":\[/);
    for (const tool of publishedToolSchemas()) {
      const own = JSON.stringify(tool.inputSchema);
      const defs = Object.keys((tool.inputSchema.$defs as Record<string, unknown> | undefined) ?? {});
      for (const [, name] of own.matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)) expect(defs).toContain(name);
    }
    const create = publishedToolSchemas().find((tool) => tool.name === 'create_canvas_node')!.inputSchema;
    expect(Object.keys(create.$defs as Record<string, unknown>)).toEqual(
      expect.arrayContaining(['Common', 'ImageResult', 'DirectorControlBundle', 'SN', 'CanvasNode']),
    );
  });
});

describe('error codes', () => {
  it('form a closed list with the required codes', () => {
    for (const code of [
      'invalid_arguments',
      'unauthenticated',
      'forbidden',
      'not_found',
      'revision_conflict',
      'edit_not_authorized',
      'contract_error',
      'rate_limited',
      'internal',
    ]) {
      expect(ERROR_CODE_NAMES).toContain(code);
    }
  });

  it.each([
    ['invalid_arguments', 400, false],
    ['unauthenticated', 401, false],
    ['forbidden', 403, false],
    ['edit_not_authorized', 403, false],
    ['not_found', 404, false],
    ['revision_conflict', 409, true],
    ['rate_limited', 429, true],
    ['internal', 500, true],
  ] as const)('%s → HTTP %i, retryable %s', (code, status, retryable) => {
    expect(ERROR_CODES[code]).toEqual({ status, retryable });
  });
});
