// `GET /openapi.json` (docs/http.md "Limits"): the document @hono/zod-openapi builds from the route
// schemas, plus the rules every string follows (the edge check, src/http/input.ts), stated where a
// generator and a fuzzer read them: on each string and each map's keys, and in the description.
import { MAX_HEADER_BYTES, MAX_JSON_DEPTH, MAX_PARAMETER_LENGTH, MAX_VARIABLES_BYTES } from '../input-rules.js';

/**
 * No U+0000 (PostgreSQL `text` and `jsonb` cannot store it). Lone surrogates are refused too, but
 * a pattern cannot name them portably (Rust and Python validators refuse `\uD800` in a class); a
 * JSON text that carries one is not Unicode (RFC 8259 §8.2, I-JSON), and the description says so.
 */
export const STORABLE_STRING = '^[^\\u0000]*$';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Keys whose values are data, not schemas: never rewritten. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum']);

const isString = (s: Json) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));

/** Adds the storable-string rule to every string schema and map (record) schema below `node`. */
function constrain(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) constrain(item);
    return;
  }
  if (!isObject(node)) return;
  // A string the schema does not already bound by a pattern, a format or a list of values.
  if (isString(node) && !('pattern' in node) && !('format' in node) && !('enum' in node) && !('const' in node))
    node.pattern = STORABLE_STRING;
  // zod's .int() takes safe integers only (±(2^53 − 1)): say so where no tighter bound is given.
  if (node.type === 'integer' || (Array.isArray(node.type) && node.type.includes('integer'))) {
    if (!('maximum' in node) && !('exclusiveMaximum' in node)) node.maximum = Number.MAX_SAFE_INTEGER;
    if (!('minimum' in node) && !('exclusiveMinimum' in node)) node.minimum = Number.MIN_SAFE_INTEGER;
  }
  // A map (z.record): its keys are strings the service stores too.
  if (isObject(node.additionalProperties) && !('propertyNames' in node))
    node.propertyNames = { pattern: STORABLE_STRING };
  for (const [key, value] of Object.entries(node)) if (!DATA_KEYS.has(key)) constrain(value);
}

const BOUNDS: Record<string, 'min' | 'max'> = {
  maximum: 'min',
  exclusiveMaximum: 'min',
  maxLength: 'min',
  maxItems: 'min',
  maxProperties: 'min',
  minimum: 'max',
  exclusiveMinimum: 'max',
  minLength: 'max',
  minItems: 'max',
  minProperties: 'max',
};

/** Both property schemas at once: the branch's keywords added, the stricter of two bounds kept. */
function narrow(base: unknown, extra: Json): Json {
  if (!isObject(base)) return structuredClone(extra);
  const out: Json = structuredClone(base);
  if ('const' in extra) delete out.enum;
  for (const [key, value] of Object.entries(extra)) {
    const bound = BOUNDS[key];
    out[key] =
      bound && typeof out[key] === 'number' && typeof value === 'number' ? Math[bound](out[key], value) : value;
  }
  return out;
}

/**
 * An object whose `oneOf` only adds requirements to its own properties (zod refinements published
 * with `.openapi({ oneOf })`: one of two bodies, each kind's fields) becomes a `oneOf` of whole
 * objects, the same set of instances, which generators turn into one typed model per shape (they
 * read the fragments as shapes of their own and drop the properties). A fragment that only
 * requires keys (`{required: ['dsl']}`) leaves out the keys the other fragments require.
 */
function distribute(name: string, schema: Json, schemas: Json): void {
  const branches = schema.oneOf;
  if (!Array.isArray(branches) || !isObject(schema.properties)) return;
  if (!branches.every((b) => isObject(b) && !('type' in b) && !('$ref' in b))) return;
  const fragments = branches as Json[];
  const requiredOf = (b: Json) => (Array.isArray(b.required) ? (b.required as string[]) : []);
  const base = { ...schema };
  delete base.oneOf;
  const { description, ...shape } = base;
  schema.oneOf = fragments.map((b) => {
    const keysOnly = Object.keys(b).every((k) => k === 'required');
    const others = new Set(fragments.filter((o) => o !== b).flatMap(requiredOf));
    const properties: Json = {};
    for (const [name, property] of Object.entries(shape.properties as Json)) {
      if (keysOnly && others.has(name) && !requiredOf(b).includes(name)) continue;
      const extra = isObject(b.properties) ? b.properties[name] : undefined;
      properties[name] = isObject(extra) ? narrow(property, extra) : structuredClone(property);
    }
    for (const [name, extra] of Object.entries(isObject(b.properties) ? b.properties : {}))
      if (!(name in properties) && isObject(extra)) properties[name] = structuredClone(extra);
    const required = [
      ...new Set([...(Array.isArray(shape.required) ? (shape.required as string[]) : []), ...requiredOf(b)]),
    ];
    // Each shape is a component of its own, named after what sets it apart (a kind, a key).
    const shapeName = `${name}${branchName(b)}`;
    schemas[shapeName] = { ...structuredClone(shape), properties, required };
    return { $ref: `#/components/schemas/${shapeName}` };
  });
  for (const key of Object.keys(shape)) delete schema[key];
  if (description !== undefined) schema.description = description;
}

const capital = (s: string) =>
  s.charAt(0).toUpperCase() +
  s.slice(1).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase());

/** `Activity` for `{properties: {kind: {const: 'activity'}}}`, `WithDsl` for `{required: ['dsl']}`. */
function branchName(fragment: Json): string {
  for (const property of Object.values(isObject(fragment.properties) ? fragment.properties : {}))
    if (isObject(property) && typeof property.const === 'string') return capital(property.const);
  const required = Array.isArray(fragment.required) ? (fragment.required as string[]) : [];
  return `With${required.map(capital).join('And')}`;
}

export function documentDescription(bodyLimitBytes: number) {
  return [
    'Durable approval workflows on Temporal. Every response uses the envelope {code, data, message}.',
    '',
    'Rules every request follows (docs/http.md, "Limits"):',
    '* Strings (body values, object keys, path and query parameters) must not contain U+0000 (each string schema carries the pattern `^[^\\u0000]*$`, each map its `propertyNames`) nor a UTF-16 surrogate without its pair (not Unicode); also inside free-form JSON values (variables, DSL documents) → 400 VALIDATION_FAILED naming the field.',
    `* A JSON body nests at most ${MAX_JSON_DEPTH} levels (the body object is one) → else 400; a body is at most ${bodyLimitBytes} bytes → else 413; a JSON body needs Content-Type application/json → else 415.`,
    `* Each path segment and each query parameter name and value has at most ${MAX_PARAMETER_LENGTH} characters (each parameter's maxLength) → else 400; the request line and headers together at most ${MAX_HEADER_BYTES} bytes → else 431.`,
    '* No path segment may be `.` or `..` (also `%2e`): URL parsing removes such a segment, so the request would name another resource → 400 VALIDATION_FAILED naming `path` (each path parameter says `not: {enum: [".", ".."]}`).',
    `* The variables of one request serialise to at most ${MAX_VARIABLES_BYTES} bytes of UTF-8 JSON → else 400.`,
    '* Unknown body fields → 400 UNKNOWN_FIELD (every body object is closed: additionalProperties false).',
    '* A path id that names nothing (or an object of another tenant) → 404 NOT_FOUND; a body that names a user, role, department, definition or notification channel the tenant does not have → 404 REFERENCE_NOT_FOUND (40410) with data.fields; a deactivated user → 409 USER_INACTIVE (40909).',
    '',
    'Languages (en, zh-CN): the words of an answer (error messages, field-error and validation-problem messages, assignment reasons) ' +
      "are chosen in one order: the signed-in user's `locale`, else the `Accept-Language` request header " +
      "(components.parameters.AcceptLanguage; zh, zh-CN, zh-Hans → Simplified Chinese), else the tenant's default language " +
      '(GET/PUT /api/v1/tenant-settings), else English. Codes (`code`, problem `code` and `params`, trail `code` and `params`) ' +
      'never change with the language: clients should branch on them, not on `message`.',
  ].join('\n');
}

/**
 * The served document: the generated one with every string bounded by `STORABLE_STRING` (the
 * error envelope, which only answers, is left as generated).
 */
export function exactDocument<D extends object>(doc: D): D {
  const copy = structuredClone(doc) as Json;
  const components = isObject(copy.components) ? copy.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) if (isObject(schema)) distribute(name, schema, schemas);
  for (const [name, schema] of Object.entries(schemas)) if (name !== 'ErrorEnvelope') constrain(schema);
  for (const item of Object.values(isObject(copy.paths) ? copy.paths : {})) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      constrain(operation.parameters);
      constrain(operation.requestBody);
      for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
        if (!isObject(parameter) || (parameter.in !== 'path' && parameter.in !== 'query')) continue;
        const schema = parameter.schema;
        if (isObject(schema) && isString(schema) && !(Number(schema.maxLength) <= MAX_PARAMETER_LENGTH))
          schema.maxLength = MAX_PARAMETER_LENGTH;
        // A path segment `.` or `..` never reaches its route: URL parsing removes it (input.ts dotSegments).
        if (parameter.in === 'path' && isObject(schema) && isString(schema)) schema.not = { enum: ['.', '..'] };
      }
    }
  }
  return copy as D;
}
