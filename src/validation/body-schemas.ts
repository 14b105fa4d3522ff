import type { z } from 'zod';
import {
  ChangesBody,
  ChatRunOpenBody,
  CreateEdgeBody,
  CreateNodeBody,
  HIDDEN_TOOL_CONTRACTS,
  RevertBody,
  RevisionCheckedBody,
  TOOL_CONTRACTS,
  TokenIssueBody,
  UpdateNodeBody,
} from '../contract/index.js';

/**
 * Every request body schema the edges validate, by a name a worker thread can be told (a schema object cannot cross
 * threads). Tool arguments are named `tool:<tool name>`.
 */
const REST_BODIES = {
  CreateNodeBody,
  UpdateNodeBody,
  RevisionCheckedBody,
  CreateEdgeBody,
  ChangesBody,
  RevertBody,
  ChatRunOpenBody,
  TokenIssueBody,
} as const;

const TOOL_INPUTS: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries({ ...TOOL_CONTRACTS, ...HIDDEN_TOOL_CONTRACTS }).map(([name, contract]) => [
    `tool:${name}`,
    contract.input,
  ]),
);

const BY_NAME = new Map<string, z.ZodType>([...Object.entries(REST_BODIES), ...Object.entries(TOOL_INPUTS)]);
const NAME_OF = new Map<z.ZodType, string>([...BY_NAME.entries()].map(([name, schema]) => [schema, name]));

export function bodySchema(name: string): z.ZodType | undefined {
  return BY_NAME.get(name);
}

/** The registered name of a schema, or undefined for one that is not registered (validated inline only). */
export function bodySchemaName(schema: z.ZodType): string | undefined {
  return NAME_OF.get(schema);
}

export function toolSchemaName(toolName: string): string {
  return `tool:${toolName}`;
}
