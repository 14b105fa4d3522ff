/**
 * Shared sub-schemas published once (docs/contract.md, "Schema form"): a generated JSON Schema is rewritten so that
 * every subschema it holds more than once (the common data fields' types, the image-result fields, the director
 * bundle, the identifiers, …) is written once under the root's `$defs` and referenced with `$ref` everywhere else.
 * The rewrite changes form only: a `$ref` to an identical subschema validates exactly what the subschema did, and
 * the equivalence suite runs on the rewritten schemas.
 *
 * For the clients that read tool schemas with the least JSON Schema support: definitions live only at the root of
 * each published schema (never shared across schemas), refs are local (`#/$defs/Name`), and a `$ref` node carries
 * nothing but an optional description (Gemini refuses other keywords beside `$ref`).
 */
import type { JsonSchema } from './json-schema.js';

/** Keywords whose value is one subschema, an array of subschemas, or a map of named subschemas. */
const SUBSCHEMA = new Set(['additionalProperties', 'propertyNames', 'not', 'items', 'contains', 'if', 'then', 'else']);
const SUBSCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'items', 'prefixItems']);
const SUBSCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

/** Below this size a `{"$ref":"#/$defs/…"}` (about 25 bytes) saves nothing. */
const MIN_SHARED_BYTES = 30;

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON with keys in a stable order: identical subschemas get identical text. */
export function canonicalJson(value: Json): string {
  return canonical(value);
}

function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
    .join(',')}}`;
}

/** Applies `visit` to every subschema position of `schema` (not to the schema itself), rebuilding the object. */
function mapSubschemas(schema: Record<string, Json>, visit: (child: Json, hint: string) => Json): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SUBSCHEMA_MAP.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, visit(child, name)]));
    } else if (SUBSCHEMA_LIST.has(key) && Array.isArray(value)) {
      out[key] = value.map((child) => visit(child, key));
    } else if (SUBSCHEMA.has(key) && isObject(value)) {
      out[key] = visit(value, key);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Rewrites that change a subschema's form, never what it accepts. */
function simplify(schema: Record<string, Json>): Record<string, Json> {
  return withoutEmptyAdditional(withoutRedundantType(nullableAsAnyOf(unwrapRefAllOf(schema))));
}

/** The form every subschema takes before sharing: how a contract schema is recognised by its name. */
export function normalizedForm(value: Json): Json {
  return unwrapAll(value);
}

function unwrapAll(value: Json): Json {
  if (Array.isArray(value)) return value.map(unwrapAll);
  if (!isObject(value)) return value;
  return simplify(mapSubschemas(value, (child) => unwrapAll(child)));
}

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples']);

/**
 * `type: [X, "null"]` becomes `anyOf: [{type: X, …}, {type: "null"}]`: the nullable form the fewest MCP clients
 * reject (Gemini's function declarations refuse type arrays; docs/contract.md, "Schema form").
 */
function nullableAsAnyOf(schema: Record<string, Json>): Record<string, Json> {
  const { type } = schema;
  if (!Array.isArray(type) || type.length !== 2 || !type.includes('null')) return schema;
  const other = type.find((entry) => entry !== 'null');
  const annotations: Record<string, Json> = {};
  const constraints: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type') continue;
    (ANNOTATIONS.has(key) ? annotations : constraints)[key] = value;
  }
  return { anyOf: [{ type: other, ...constraints }, { type: 'null' }], ...annotations };
}

/** `additionalProperties: {}` allows what is allowed anyway. */
function withoutEmptyAdditional(schema: Record<string, Json>): Record<string, Json> {
  const { additionalProperties, ...rest } = schema;
  return isObject(additionalProperties) && Object.keys(additionalProperties).length === 0 ? rest : schema;
}

/** `type` beside a `const` or an `enum` whose values all have that type says nothing more. */
function withoutRedundantType(schema: Record<string, Json>): Record<string, Json> {
  const { type, ...rest } = schema;
  if (typeof type !== 'string') return schema;
  const values = 'const' in rest ? [rest.const] : Array.isArray(rest.enum) ? rest.enum : null;
  if (values === null || values.length === 0) return schema;
  const ofType = (value: Json) =>
    type === 'integer'
      ? Number.isInteger(value)
      : type === 'null'
        ? value === null
        : typeof value === type && value !== null;
  return values.every(ofType) ? rest : schema;
}

/** `{allOf: [{$ref}]}` (how zod annotates a referenced schema) is the `$ref` itself. */
function unwrapRefAllOf(schema: Record<string, Json>): Record<string, Json> {
  const { allOf, ...rest } = schema;
  const only = Array.isArray(allOf) && allOf.length === 1 ? allOf[0] : undefined;
  if (!isObject(only) || typeof only.$ref !== 'string' || Object.keys(only).length !== 1) return schema;
  if (Object.keys(rest).some((key) => key !== 'description')) return schema;
  return { $ref: only.$ref, ...rest };
}

/** A named set of properties several object schemas share (the common data fields, the image-result fields, …). */
export interface FieldGroup {
  name: string;
  /** The group's properties, as generated (refs to `#/definitions/…` are retargeted like the document's). */
  properties: Record<string, Json>;
}

/**
 * An object schema that holds every property of a group, each with the group's own schema, validates them through
 * `allOf: [{$ref: group}]` instead; it still names each property (as `{}`) so `additionalProperties: false` keeps
 * allowing exactly the same keys.
 */
function factorGroups(
  schema: Record<string, Json>,
  groups: ReadonlyArray<{ name: string; texts: Map<string, string> }>,
  used: Set<string>,
) {
  const properties = schema.properties;
  if (!isObject(properties)) return schema;
  let result = schema;
  for (const group of groups) {
    const matches = [...group.texts].every(([key, text]) => key in properties && canonical(properties[key]) === text);
    if (!matches) continue;
    const current = result.properties as Record<string, Json>;
    const replaced = Object.fromEntries(
      Object.entries(current).map(([key, value]) => [key, group.texts.has(key) ? {} : value]),
    );
    const allOf = Array.isArray(result.allOf) ? result.allOf : [];
    result = { ...result, properties: replaced, allOf: [...allOf, { $ref: `#/$defs/${group.name}` }] };
    used.add(group.name);
  }
  return result;
}

/**
 * A `oneOf` of closed objects that all allow the same keys (the node envelope around each type's data) is written
 * as one closed object holding the properties every branch shares, and a `oneOf` over what differs. Exactly one
 * branch matched before iff exactly one matches now: the shared part is the same in every branch.
 */
function hoistSharedBranchProperties(schema: Record<string, Json>): Record<string, Json> {
  const branches = schema.oneOf;
  if (!Array.isArray(branches) || branches.length < 2 || Object.keys(schema).length !== 1) return schema;
  if (
    !branches.every(
      (branch) =>
        isObject(branch) &&
        branch.type === 'object' &&
        branch.additionalProperties === false &&
        isObject(branch.properties),
    )
  ) {
    return schema;
  }
  const objects = branches as Array<Record<string, Json> & { properties: Record<string, Json> }>;
  const keyList = (branch: { properties: Record<string, Json> }) =>
    Object.keys(branch.properties).sort().join('\u0000');
  const extraKeys = (branch: Record<string, Json>) =>
    Object.keys(branch).filter(
      (key) => !['type', 'properties', 'required', 'additionalProperties', 'allOf'].includes(key),
    );
  const first = objects[0]!;
  // Groups every branch validates (the same allOf) move up with the shared properties.
  const sameAllOf = objects.every((branch) => canonical(branch.allOf ?? null) === canonical(first.allOf ?? null));
  if (!sameAllOf || objects.some((branch) => keyList(branch) !== keyList(first) || extraKeys(branch).length > 0))
    return schema;
  const shared = Object.keys(first.properties).filter((key) =>
    objects.every((branch) => canonical(branch.properties[key]) === canonical(first.properties[key])),
  );
  if (shared.length === 0) return schema;
  const requiredOf = (branch: Record<string, Json>) =>
    Array.isArray(branch.required) ? (branch.required as string[]) : [];
  const sharedRequired = requiredOf(first).filter((key) => objects.every((branch) => requiredOf(branch).includes(key)));
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.keys(first.properties).map((key) => [key, shared.includes(key) ? first.properties[key] : {}]),
    ),
    required: sharedRequired,
    additionalProperties: false,
    ...(first.allOf !== undefined ? { allOf: first.allOf } : {}),
    oneOf: objects.map((branch) => {
      const own = requiredOf(branch).filter((key) => !sharedRequired.includes(key));
      const varying = Object.fromEntries(Object.entries(branch.properties).filter(([key]) => !shared.includes(key)));
      return { properties: varying, ...(own.length > 0 ? { required: own } : {}) };
    }),
  };
}

function pascal(hint: string): string {
  const words = hint
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `Schema${name}`;
}

/**
 * Rewrites `root` with every repeated subschema moved to `$defs`. `names` maps the canonical text of a known
 * contract schema to its name (ProjectId, DirectorControlBundle, …); others are named after where they first appear.
 */
export function shareRepeatedSubschemas(
  root: JsonSchema,
  names: ReadonlyMap<string, string>,
  fieldGroups: readonly FieldGroup[] = [],
): JsonSchema {
  // No `$schema`: MCP's default dialect is 2020-12, whose `$defs` this uses; every keyword here means the same in
  // draft-07, so a draft-07 validator (the v1 SDK's Ajv) agrees.
  const { definitions, $defs, $schema: _dialect, ...body } = root;
  const existing = { ...(isObject(definitions) ? definitions : {}), ...(isObject($defs) ? $defs : {}) };
  // zod names its own definitions under draft-07's `definitions`; they move to `$defs` with the rest.
  const retarget = (text: string) => text.replace(/"#\/definitions\//g, '"#/$defs/');
  const groups = fieldGroups.map((group) => {
    const properties = JSON.parse(retarget(JSON.stringify(group.properties))) as Record<string, Json>;
    const normalized = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, unwrapAll(value)]));
    return {
      name: group.name,
      properties: normalized,
      texts: new Map(Object.entries(normalized).map(([key, value]) => [key, canonical(value)])),
    };
  });
  const usedGroups = new Set<string>();
  const normalize = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(normalize);
    if (!isObject(value)) return value;
    const rebuilt = mapSubschemas(value, (child) => normalize(child));
    return hoistSharedBranchProperties(factorGroups(simplify(rebuilt), groups, usedGroups));
  };
  const start = JSON.parse(retarget(JSON.stringify({ body, existing }))) as {
    body: Record<string, Json>;
    existing: Record<string, Json>;
  };
  const normalizedBody = normalize(start.body) as Record<string, Json>;
  const normalizedDefs: Record<string, Json> = Object.fromEntries(
    Object.entries(start.existing).map(([name, def]) => [name, normalize(def)]),
  );
  for (const group of groups)
    if (usedGroups.has(group.name)) normalizedDefs[group.name] = { properties: group.properties };

  // Pass 1: how often each subschema occurs, anywhere in the document.
  const counts = new Map<string, number>();
  const count = (value: Json): void => {
    if (!isObject(value)) return;
    const text = canonical(value);
    counts.set(text, (counts.get(text) ?? 0) + 1);
    mapSubschemas(value, (child) => {
      count(child);
      return child;
    });
  };
  mapSubschemas(normalizedBody, (child) => {
    count(child);
    return child;
  });
  for (const def of Object.values(normalizedDefs)) {
    mapSubschemas(def as Record<string, Json>, (child) => {
      count(child);
      return child;
    });
  }

  // Pass 2: bottom-up, a repeated subschema becomes a reference to its one definition.
  const defs: Record<string, Json> = {};
  const nameOf = new Map<string, string>();
  for (const [name, def] of Object.entries(normalizedDefs)) nameOf.set(canonical(def), name);
  const taken = new Set(Object.keys(normalizedDefs));
  const share = (value: Json, hint: string): Json => {
    if (!isObject(value) || typeof value.$ref === 'string') return value;
    const original = canonical(value);
    const rebuilt = mapSubschemas(value, share);
    if ((counts.get(original) ?? 0) < 2 || JSON.stringify(rebuilt).length < MIN_SHARED_BYTES) return rebuilt;
    let name = nameOf.get(original);
    if (!name) {
      const base = names.get(original) ?? pascal(hint);
      name = base;
      for (let index = 2; taken.has(name); index += 1) name = `${base}${index}`;
      taken.add(name);
      nameOf.set(original, name);
    }
    defs[name] ??= rebuilt;
    return { $ref: `#/$defs/${name}` };
  };
  const sharedBody = mapSubschemas(normalizedBody, share);
  for (const [name, def] of Object.entries(normalizedDefs))
    defs[name] = mapSubschemas(def as Record<string, Json>, share);
  const ordered = Object.fromEntries(
    Object.keys(defs)
      .sort()
      .map((name) => [name, defs[name]]),
  );
  return {
    ...sharedBody,
    ...(Object.keys(ordered).length > 0 ? { $defs: ordered } : {}),
  };
}
