import { z } from 'zod';
import {
  commonDataFields,
  generationProgressFields,
  NODE_DATA_SCHEMAS,
  type NodeType,
} from '../../../src/contract/index.js';

/**
 * The fields of a node's data a form edits, read from the node type's data schema in the contract (one source of
 * truth: a field the contract adds shows in the Details form with nothing written here). A string is a text field, a
 * number a number field, an enum or a set of literals a choice, a boolean a checkbox; lists and objects are edited on
 * the cards (shots, marks, parameters) and shown under Advanced.
 */

export type DataFieldKind = 'text' | 'number' | 'choice' | 'boolean';

export interface DataField {
  name: string;
  /** How people read the name: "Aspect ratio" for `aspectRatio`. */
  label: string;
  kind: DataFieldKind;
  /** A choice's values, as the data holds them. */
  choices?: ReadonlyArray<string | number>;
  /** The field may be left out (emptied, it is removed) or null (emptied, it is null). */
  optional: boolean;
  nullable: boolean;
  description?: string;
}

/**
 * Left out of the form: the display name has its own place at the top of the Details panel, and the fields every
 * node has for its runs (which run, its status, who started it, its progress) are written by the runs themselves;
 * Advanced shows them.
 */
const ELSEWHERE = new Set([...Object.keys(commonDataFields), ...Object.keys(generationProgressFields)]);

function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean; nullable: boolean } {
  let inner = schema;
  let optional = false;
  let nullable = false;
  for (;;) {
    if (inner instanceof z.ZodOptional) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodNullable) {
      nullable = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodDefault) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else return { inner, optional, nullable };
  }
}

function kindOf(schema: z.ZodType): Pick<DataField, 'kind' | 'choices'> | null {
  if (schema instanceof z.ZodString) return { kind: 'text' };
  if (schema instanceof z.ZodNumber) return { kind: 'number' };
  if (schema instanceof z.ZodBoolean) return { kind: 'boolean' };
  if (schema instanceof z.ZodEnum) return { kind: 'choice', choices: schema.options as Array<string | number> };
  if (schema instanceof z.ZodLiteral) {
    const values = [...schema.values].filter(
      (value): value is string | number => typeof value === 'string' || typeof value === 'number',
    );
    return values.length > 0 ? { kind: 'choice', choices: values } : null;
  }
  return null;
}

export function fieldLabel(name: string): string {
  const words = name
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const cache = new Map<string, DataField[]>();

/** The editable fields of a node type's data, in the schema's order; none for a type the contract does not know. */
export function dataFields(type: string): DataField[] {
  const known = cache.get(type);
  if (known) return known;
  const schema = (NODE_DATA_SCHEMAS as Record<string, z.ZodType | undefined>)[type];
  const fields: DataField[] = [];
  if (schema instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      if (ELSEWHERE.has(name)) continue;
      const { inner, optional, nullable } = unwrap(field);
      const kind = kindOf(inner);
      if (!kind) continue;
      const description = field.description ?? inner.description;
      fields.push({
        name,
        label: fieldLabel(name),
        ...kind,
        optional,
        nullable,
        ...(description ? { description } : {}),
      });
    }
  }
  cache.set(type, fields);
  return fields;
}

/**
 * Why the contract refuses `value` for the field `name` of a node of `type` whose data is `data` now, in words that
 * name the field ("Count: ..."); null when it takes it. Only what the contract says of this field counts: data that
 * is off elsewhere (written by an older version, say) does not stop a good edit here.
 */
export function fieldRefusal(
  type: NodeType | string,
  data: Record<string, unknown>,
  field: DataField,
  value: unknown,
): string | null {
  const schema = (NODE_DATA_SCHEMAS as Record<string, z.ZodType | undefined>)[type];
  if (!schema) return null;
  const next: Record<string, unknown> = { ...data, [field.name]: value };
  if (value === undefined) delete next[field.name];
  const result = schema.safeParse(next);
  if (result.success) return null;
  const issue = result.error.issues.find((each) => each.path[0] === field.name);
  return issue ? `${field.label}: ${issue.message}` : null;
}
