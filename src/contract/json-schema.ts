import { z } from 'zod';
import { PUBLISHED_TOOL_NAMES, TOOL_CONTRACTS, type PublishedToolName } from './tools.js';

/**
 * JSON Schema generated from the zod contract: what tools/list publishes and what the skill catalog serves.
 *
 * draft-07, like the official SDK publishes; every keyword we emit means the same in draft 2020-12, so clients
 * on either dialect agree. Input schemas describe what a caller may send (a default makes a field optional).
 */
export type JsonSchema = Record<string, unknown>;
export type JsonSchemaObject = JsonSchema & { type: 'object' };

const cache = new WeakMap<z.ZodType, Partial<Record<'input' | 'output', JsonSchema>>>();

function generate(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const entry = cache.get(schema) ?? {};
  const cached = entry[io];
  if (cached) return cached;
  const generated = z.toJSONSchema(schema, { target: 'draft-07', io, unrepresentable: 'throw' }) as JsonSchema;
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
  const { $schema, ...rest } = schema;
  return { $schema, type: 'object', ...rest };
}

/** The input and output JSON Schemas of a tool, as tools/list publishes them. */
export function toolJsonSchemas(contract: { input: z.ZodType; output: z.ZodType }): {
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
} {
  return {
    inputSchema: asObjectRoot(inputJsonSchema(contract.input)),
    outputSchema: asObjectRoot(outputJsonSchema(contract.output)),
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
