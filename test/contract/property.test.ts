import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CanvasId,
  CanvasNode,
  ClientSaveId,
  NODE_TYPES,
  ResourceId,
  inputJsonSchema,
  type NodeType,
} from '../../src/contract/index.js';
import { arbitraryFromJsonSchema } from '../support/arbitrary-from-json-schema.js';

const ajv = new Ajv({ allErrors: true });
const nodeJsonSchema = inputJsonSchema(CanvasNode);
const validateNode = ajv.compile(nodeJsonSchema);

/** The published node schema for one type: the shared envelope with that type's branch of the `oneOf` merged in. */
function nodeArbitrary(type: NodeType): fc.Arbitrary<Record<string, unknown>> {
  const root = nodeJsonSchema as Record<string, unknown>;
  const definitions = root.$defs as Record<string, Record<string, unknown>>;
  const { oneOf, ...envelope } = (definitions.CanvasNode ?? root) as {
    oneOf: Array<Record<string, unknown>>;
    properties: Record<string, unknown>;
    required: string[];
  };
  const branch = oneOf.find(
    (candidate) => (candidate.properties as Record<string, { const?: string }>).type?.const === type,
  );
  if (!branch) throw new Error(`no schema branch for ${type}`);
  const merged = {
    ...envelope,
    properties: { ...envelope.properties, ...(branch.properties as Record<string, unknown>) },
    required: [...envelope.required, ...((branch.required as string[] | undefined) ?? [])],
  };
  return arbitraryFromJsonSchema(merged, root) as fc.Arbitrary<Record<string, unknown>>;
}

describe('property: generated valid nodes', () => {
  it.each(NODE_TYPES)('every generated %s is accepted by zod and by ajv', (type) => {
    fc.assert(
      fc.property(nodeArbitrary(type), (generated) => {
        const json = JSON.parse(JSON.stringify(generated)) as unknown;
        const parsed = CanvasNode.safeParse(json);
        expect(parsed.error?.issues ?? []).toEqual([]);
        expect(validateNode(json)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it.each(NODE_TYPES)('a generated %s with one unknown data key is refused by both', (type) => {
    fc.assert(
      fc.property(nodeArbitrary(type), fc.constantFrom('zzUnknown', 'textNode', '__proto_x'), (generated, key) => {
        const data = generated.data as Record<string, unknown>;
        fc.pre(!Object.hasOwn(data, key));
        const mutated = JSON.parse(JSON.stringify({ ...generated, data: { ...data, [key]: 1 } })) as unknown;
        expect(CanvasNode.safeParse(mutated).success).toBe(false);
        expect(validateNode(mutated)).toBe(false);
      }),
      { numRuns: 50 },
    );
  });
});

describe('property: identifier verdicts agree between zod and ajv for any string', () => {
  const anyString = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: fc.constantFrom('a', '.', '/', ' ', '\u007f', '\u{1F3AC}', '\u0000', 'é', '%'), maxLength: 260 }),
    fc.string({ unit: 'binary-ascii', minLength: 250, maxLength: 260 }),
  );
  it.each([
    ['project_id rule', ResourceId],
    ['canvas_id rule', CanvasId],
    ['client_save_id rule', ClientSaveId],
  ] as const)('%s', (_name, schema) => {
    const validate = ajv.compile(inputJsonSchema(schema));
    fc.assert(
      fc.property(anyString, (value) => {
        expect(validate(value)).toBe(schema.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });
});
