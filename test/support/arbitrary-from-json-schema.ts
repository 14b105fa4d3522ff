import fc from 'fast-check';

/**
 * fast-check arbitraries derived from the published JSON Schema, so property tests generate from the same single
 * source as everything else. Supports the subset of draft-07 our contract emits.
 */
type Schema = Record<string, unknown>;

const MAX_ARRAY_ITEMS = 3;

function resolveRef(ref: string, root: Schema): Schema {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const definitions = match ? (root[match[1]!] as Record<string, Schema> | undefined) : undefined;
  const target = match ? definitions?.[match[2]!] : undefined;
  if (!target) throw new Error(`unresolvable $ref ${ref}`);
  return target;
}

/**
 * An object schema with the properties its `allOf` references validate (a shared field group) merged in: the
 * published form names such a property as `{}` and validates it through the group (src/contract/schema-defs.ts).
 */
export function withGroupProperties(schema: Schema, root: Schema): Schema {
  const groups = (Array.isArray(schema.allOf) ? (schema.allOf as Schema[]) : []).map((entry) =>
    typeof entry.$ref === 'string' ? resolveRef(entry.$ref, root) : entry,
  );
  if (groups.length === 0) return schema;
  const properties = { ...((schema.properties as Record<string, Schema> | undefined) ?? {}) };
  for (const group of groups) {
    for (const [key, value] of Object.entries((group.properties as Record<string, Schema> | undefined) ?? {})) {
      if (key in properties && Object.keys(properties[key]!).length === 0) properties[key] = value;
    }
  }
  const { allOf: _groups, ...rest } = schema;
  return { ...rest, properties };
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const pattern = schema.pattern as string | undefined;
  if (pattern) {
    const full = new RegExp(pattern, 'u');
    // fast-check cannot generate from lookaheads: drop a leading one and filter with the full pattern.
    const withoutLookahead = new RegExp(pattern.replace(/^\^\(\?[!=][^()]*\)/, '^'), 'u');
    return fc.stringMatching(withoutLookahead).filter((value) => full.test(value));
  }
  return fc.string({
    minLength: (schema.minLength as number | undefined) ?? 0,
    maxLength: Math.min((schema.maxLength as number | undefined) ?? 12, 12),
    unit: 'grapheme',
  });
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMinimum = schema.exclusiveMinimum as number | undefined;
  const minimum = (schema.minimum as number | undefined) ?? exclusiveMinimum;
  const maximum = schema.maximum as number | undefined;
  if (integer) {
    return fc.integer({
      min: Math.max(minimum === undefined ? -1e9 : exclusiveMinimum !== undefined ? minimum + 1 : minimum, -1e9),
      max: Math.min(maximum ?? 1e9, 1e9),
    });
  }
  return fc.double({
    min: minimum ?? -1e9,
    max: maximum ?? 1e9,
    minExcluded: exclusiveMinimum !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function objectArbitrary(published: Schema, root: Schema): fc.Arbitrary<unknown> {
  const schema = withGroupProperties(published, root);
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const keys = Object.keys(properties);
  if (keys.length === 0 && schema.additionalProperties !== false) {
    const values =
      schema.additionalProperties && typeof schema.additionalProperties === 'object'
        ? arbitraryFromJsonSchema(schema.additionalProperties as Schema, root)
        : fc.jsonValue({ maxDepth: 2 });
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), values, { maxKeys: 3 });
  }
  const model = Object.fromEntries(keys.map((key) => [key, arbitraryFromJsonSchema(properties[key]!, root)]));
  return fc.record(model, { requiredKeys: required });
}

function typedArbitrary(type: string, schema: Schema, root: Schema): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'number':
      return numberArbitrary(schema, false);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryFromJsonSchema((schema.items as Schema | undefined) ?? {}, root), {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min(
          (schema.maxItems as number | undefined) ?? MAX_ARRAY_ITEMS,
          Math.max(MAX_ARRAY_ITEMS, (schema.minItems as number | undefined) ?? 0),
        ),
      });
    case 'object':
      return objectArbitrary(schema, root);
    default:
      throw new Error(`unsupported JSON Schema type ${type}`);
  }
}

export function arbitraryFromJsonSchema(schema: Schema, root: Schema = schema): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') return arbitraryFromJsonSchema(resolveRef(schema.$ref, root), root);
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && schema.type === undefined) {
    return arbitraryFromJsonSchema(schema.allOf[0] as Schema, root);
  }
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (branches && schema.properties) {
    // Properties every branch shared, hoisted beside the oneOf (src/contract/schema-defs.ts): merge one branch back.
    const { oneOf: _oneOf, anyOf: _anyOf, ...shared } = schema;
    const sharedProperties = shared.properties as Record<string, Schema>;
    const sharedRequired = (shared.required as string[] | undefined) ?? [];
    return fc.oneof(
      ...branches.map((branch) =>
        arbitraryFromJsonSchema(
          {
            ...shared,
            properties: { ...sharedProperties, ...((branch.properties as Record<string, Schema> | undefined) ?? {}) },
            required: [...sharedRequired, ...((branch.required as string[] | undefined) ?? [])],
          },
          root,
        ),
      ),
    );
  }
  if (branches) return fc.oneof(...branches.map((branch) => arbitraryFromJsonSchema(branch, root)));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.type)) {
    return fc.oneof(...(schema.type as string[]).map((type) => typedArbitrary(type, schema, root)));
  }
  if (typeof schema.type === 'string') return typedArbitrary(schema.type, schema, root);
  return fc.jsonValue({ maxDepth: 2 });
}
