import { z } from 'zod';
import * as contract from './index.js';
import { canonicalJson, normalizedForm, shareRepeatedSubschemas, type FieldGroup } from './schema-defs.js';
import { PUBLISHED_TOOL_NAMES, TOOL_CONTRACTS, type PublishedToolName } from './tools.js';

/**
 * JSON Schema generated from the zod contract: what tools/list publishes and what the skill catalog serves.
 *
 * Generated as draft-07 and published without `$schema`: every keyword we emit means the same in draft-07 and in
 * 2020-12 (MCP 2026-07-28's default), so clients on either dialect agree. Input schemas describe what a caller may
 * send (a default makes a field optional). Every schema is published with its repeated subschemas written once
 * under `$defs` (src/contract/schema-defs.ts, docs/contract.md "Schema form").
 */
export type JsonSchema = Record<string, unknown>;
export type JsonSchemaObject = JsonSchema & { type: 'object' };

const cache = new WeakMap<z.ZodType, Partial<Record<'input' | 'output', JsonSchema>>>();

function plain(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-07', io, unrepresentable: 'throw' }) as JsonSchema;
}

let definitionNames: Map<string, string> | undefined;

/**
 * Shorter `$defs` names for the definitions every node data shape refers to: each reference spells its name, and
 * `tools/list` holds close to two hundred of them (and must stay within 40 KB: docs/contract.md, "Schema form"). `S`
 * is the bounded string, `SN` the nullable one, `NN` a nullable number, `O` an object of any members, `K` its keys, `E`
 * a node's width or height and `PN` a positive number: 900 bytes fewer than spelling them out.
 */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  Str: 'S',
  NullableString: 'SN',
  NullableNumber: 'NN',
  FreeFormObject: 'O',
  ObjectKey: 'K',
  NodeExtent: 'E',
  PositiveNumber: 'PN',
};

/** The contract's exported schemas by their JSON Schema text, so a shared subschema keeps its contract name. */
function contractNames(): ReadonlyMap<string, string> {
  if (definitionNames) return definitionNames;
  definitionNames = new Map();
  for (const [name, value] of Object.entries(contract)) {
    // Tool argument objects name no shared subschema (an empty `{}` is not "ListZoneSkillsArgs" elsewhere).
    if (!(value instanceof z.ZodType) || name.endsWith('Args')) continue;
    for (const io of ['input', 'output'] as const) {
      try {
        const { $schema: _dialect, ...json } = plain(value, io);
        const text = canonicalJson(normalizedForm(json));
        if (!definitionNames.has(text)) definitionNames.set(text, SHORT_NAMES[name] ?? name);
      } catch {
        // A schema JSON Schema cannot represent (a transform, a function) is never published.
      }
    }
  }
  return definitionNames;
}

/** Property groups spread into many node data shapes, published once each (docs/contract.md, "Schema form"). */
const FIELD_GROUPS = {
  Common: contract.commonDataFields,
  ImageResult: contract.imageResultFields,
  Progress: contract.generationProgressFields,
};

const fieldGroupsByIo: Partial<Record<'input' | 'output', FieldGroup[]>> = {};

function fieldGroups(io: 'input' | 'output'): FieldGroup[] {
  return (fieldGroupsByIo[io] ??= Object.entries(FIELD_GROUPS).map(([name, shape]) => ({
    name,
    properties: (plain(z.object(shape), io).properties ?? {}) as Record<string, unknown>,
  })));
}

function generate(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const entry = cache.get(schema) ?? {};
  const cached = entry[io];
  if (cached) return cached;
  const generated = shareRepeatedSubschemas(plain(schema, io), contractNames(), fieldGroups(io));
  entry[io] = generated;
  cache.set(schema, entry);
  return generated;
}

export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return generate(schema, 'input');
}

export function outputJsonSchema(schema: z.ZodType): JsonSchema {
  return generate(schema, 'output');
}

/** MCP requires `type: "object"` at the root of a tool schema; a union of object shapes is still an object. */
function asObjectRoot(schema: JsonSchema): JsonSchemaObject {
  if (schema.type === 'object') return schema as JsonSchemaObject;
  return { type: 'object', ...schema };
}

/** The required members of an object schema, through a root `$ref` (a contract schema with an id is one). */
function requiredOf(schema: JsonSchema): string[] {
  const ref = typeof schema.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(schema.$ref) : null;
  const target = ref ? ((schema.$defs as Record<string, JsonSchema> | undefined)?.[ref[1]!] ?? schema) : schema;
  return Array.isArray(target.required) ? (target.required as string[]) : [];
}

/**
 * The published output schema: a result is an object that holds either the success's required members or
 * `error` (docs/contract.md, "Schema form"). The full output shapes (the contract, docs/runs.md, docs/api.md) are
 * not repeated in tools/list: the spec gives outputs as "a JSON object allowing additional properties", the
 * official clients validate isError results against the outputSchema too, and the full shapes would put tools/list
 * past its 40 KB budget (get_canvas alone would repeat every node data shape of create_canvas_node).
 */
function publishedOutputSchema(contract: { success: z.ZodType }): JsonSchemaObject {
  const success = outputJsonSchema(contract.success);
  return { type: 'object', anyOf: [{ required: requiredOf(success) }, { required: ['error'] }] };
}

/**
 * The input and output JSON Schemas of a tool, as tools/list publishes them. A tool whose input accepts more than
 * the spec names (create_canvas_node and the node types beyond the spec) publishes its `publishedInput`.
 */
export function toolJsonSchemas(contract: { input: z.ZodType; success: z.ZodType; publishedInput?: z.ZodType }): {
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
} {
  return {
    inputSchema: asObjectRoot(inputJsonSchema(contract.publishedInput ?? contract.input)),
    outputSchema: publishedOutputSchema(contract),
  };
}

export interface PublishedToolSchemas {
  name: PublishedToolName;
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
}

let published: PublishedToolSchemas[] | undefined;

export function publishedToolSchemas(): PublishedToolSchemas[] {
  published ??= PUBLISHED_TOOL_NAMES.map((name) => ({ name, ...toolJsonSchemas(TOOL_CONTRACTS[name]) }));
  return published;
}
