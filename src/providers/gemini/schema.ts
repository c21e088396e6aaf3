/**
 * OpenAI tools carry JSON Schema; Gemini's `parameters` takes a subset of OpenAPI 3.0 and answers
 * 400 on any member it does not know (`$schema`, `additionalProperties`, `strict`, `$ref`, ...).
 * This keeps what Gemini accepts and rewrites the common JSON Schema idioms it can express.
 */

type Schema = Record<string, unknown>;

/** Members of Gemini's `Schema` message that pass through unchanged. */
const KEPT = new Set([
  'type',
  'title',
  'description',
  'nullable',
  'default',
  'example',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'propertyOrdering',
]);

/** The only `format` values the Gemini API takes, per type; others are rejected with a 400. */
const FORMATS: Record<string, readonly string[]> = {
  string: ['enum', 'date-time'],
  integer: ['int32', 'int64'],
  number: ['float', 'double'],
};

/** Deep enough for real tool schemas; a recursive `$ref` stops here as a bare object. */
const MAX_DEPTH = 12;

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The function's `parameters` for Gemini, or undefined when it takes none (Gemini refuses an empty OBJECT). */
export function geminiParameters(parameters: Record<string, unknown> | undefined): Schema | undefined {
  if (!parameters) return undefined;
  const converted = convert(parameters, parameters, 0);
  const properties = converted.properties;
  if (String(converted.type).toLowerCase() === 'object' && (!isObject(properties) || Object.keys(properties).length === 0)) {
    return undefined;
  }
  return converted;
}

function resolveRef(ref: string, root: Schema): Schema | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match?.[1] || !match[2]) return undefined;
  const defs = root[match[1]];
  const target = isObject(defs) ? defs[match[2]] : undefined;
  return isObject(target) ? target : undefined;
}

/** `$ref` inlined and `allOf` merged, so the rest of the conversion sees one plain schema. */
function flatten(schema: Schema, root: Schema, depth: number): Schema {
  let out: Schema = { ...schema };
  if (typeof out.$ref === 'string') {
    const target = depth < MAX_DEPTH ? resolveRef(out.$ref, root) : undefined;
    const { $ref: _ref, ...rest } = out;
    out = target ? { ...flatten(target, root, depth + 1), ...rest } : { type: 'object', ...rest };
  }
  if (Array.isArray(out.allOf)) {
    const { allOf, ...rest } = out;
    const merged: Schema = {};
    for (const member of allOf) if (isObject(member)) Object.assign(merged, flatten(member, root, depth + 1));
    out = { ...merged, ...rest };
  }
  return out;
}

function convert(input: Schema, root: Schema, depth: number): Schema {
  const schema = flatten(input, root, depth);
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) if (KEPT.has(key)) out[key] = value;

  // `type: ["string", "null"]` is how JSON Schema says nullable; Gemini takes one type plus `nullable`.
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t): t is string => typeof t === 'string' && t !== 'null');
    if (types.length < schema.type.length) out.nullable = true;
    if (types.length === 1) out.type = types[0];
    else {
      delete out.type;
      if (types.length > 1) out.anyOf = types.map((type) => ({ type }));
    }
  }

  const type = typeof out.type === 'string' ? out.type.toLowerCase() : undefined;
  const format = schema.format;
  if (typeof format === 'string' && type && FORMATS[type]?.includes(format)) out.format = format;

  // Gemini enums are strings only; `const` is a one-value enum.
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (values && values.length > 0 && values.every((v) => typeof v === 'string')) out.enum = values;

  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (variants) {
    const kept = variants.filter(isObject);
    const nonNull = kept.filter((v) => v.type !== 'null');
    if (nonNull.length < kept.length) out.nullable = true;
    // `anyOf: [X, {type: null}]` (what Pydantic emits for Optional[X]) is just a nullable X.
    if (nonNull.length === 1 && nonNull[0]) {
      for (const [key, value] of Object.entries(convert(nonNull[0], root, depth + 1))) if (!(key in out)) out[key] = value;
    } else if (nonNull.length > 1) out.anyOf = nonNull.map((v) => convert(v, root, depth + 1));
  }

  if (isObject(schema.properties)) {
    const properties: Schema = {};
    for (const [name, value] of Object.entries(schema.properties)) {
      if (isObject(value)) properties[name] = depth < MAX_DEPTH ? convert(value, root, depth + 1) : { type: 'object' };
    }
    out.properties = properties;
    if (Array.isArray(schema.required)) {
      const required = schema.required.filter((name): name is string => typeof name === 'string' && name in properties);
      if (required.length > 0) out.required = required;
    }
  }

  if (isObject(schema.items)) out.items = depth < MAX_DEPTH ? convert(schema.items, root, depth + 1) : { type: 'object' };

  return out;
}
