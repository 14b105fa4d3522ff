import { Ajv, type ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import type { z } from 'zod';
import { inputJsonSchema, jsonBoundsIssue } from '../../src/contract/index.js';

/**
 * Validates a value as the server does at its edge (the JSON bounds, then the zod schema) and with ajv on the JSON
 * Schema generated from it, as a client would (ajv's default strict mode). Both verdicts must match the expected one.
 */
const ajv = new Ajv({ allErrors: true });
const compiled = new WeakMap<z.ZodType, ValidateFunction>();

function ajvValidator(schema: z.ZodType): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(inputJsonSchema(schema));
    compiled.set(schema, validate);
  }
  return validate;
}

export function expectVerdict(schema: z.ZodType, value: unknown, valid: boolean): void {
  // A round trip through JSON: both validators must see exactly what would cross the wire.
  const json: unknown = JSON.parse(JSON.stringify(value));
  const bounds = jsonBoundsIssue(json);
  const zodResult = schema.safeParse(json);
  const validate = ajvValidator(schema);
  const ajvValid = validate(json);
  const why = `bounds: ${JSON.stringify(bounds)}; zod issues: ${JSON.stringify(zodResult.error?.issues ?? [])}; ajv errors: ${JSON.stringify(validate.errors ?? [])}`;
  expect({ server: bounds === null && zodResult.success, ajv: ajvValid }, why).toEqual({ server: valid, ajv: valid });
}

export interface Case {
  name: string;
  value: unknown;
  valid: boolean;
}

export const accept = (name: string, value: unknown): Case => ({ name, value, valid: true });
export const refuse = (name: string, value: unknown): Case => ({ name, value, valid: false });
