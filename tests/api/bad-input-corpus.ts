/**
 * The bad-input corpus: every malformed request we can derive from one route of the route table
 * (its method, its `:params` and `*`, its body and query schemas, whether it takes multipart).
 * Each case says what a correct server may answer; tests/api/bad-input.test.ts sends them all.
 */
import { randomUUID } from 'node:crypto';

/** The JSON Schema keywords TypeBox emits that the generator reads. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
}

export interface RouteEntry {
  method: string;
  /** As registered: `/api/blog/admin/posts/:id`, `/media/*`. */
  url: string;
  body?: JsonSchema;
  querystring?: JsonSchema;
  params?: JsonSchema;
  multipart: boolean;
  access?: string;
}

export type Family = 'json-body' | 'fields' | 'query' | 'params' | 'methods' | 'multipart';

/** What a correct server may answer: a 4xx; a 4xx or a 2xx (input that is odd but allowed); 404/405. */
export type Expectation = 'client-error' | 'client-error-or-success' | 'not-found-or-not-allowed';

export interface BadCase {
  family: Family;
  name: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  expect: Expectation;
}

/** What the test knows about the app: values for params and multipart fields that exist. */
export interface CorpusHints {
  params: Record<string, string>;
  multipartFields: Record<string, Record<string, string>>;
}

export const ONE_MB_STRING_LENGTH = 1_000_000;
export const DEEP_LEVELS = 10_000;
export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_LIMIT = 10 * 1024 * 1024;

const JSON_TYPE = { 'content-type': 'application/json' };
const BODY_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const PROBE_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND'];

const MALFORMED_JSON: Array<[string, string]> = [
  ['an unclosed object', '{'],
  ['a missing value', '{"a":}'],
  ['single quotes', "{'a':1}"],
  ['an unclosed array', '[1,2,'],
  ['trailing text', '{"a":1} trailing'],
  ['a trailing comma', '{"a":1,}'],
  ['NaN', 'NaN'],
  ['an unterminated string', '"unterminated'],
  ['whitespace only', '   '],
];

const INVALID_UTF8: Array<[string, number[]]> = [
  ['a lone continuation byte', [0x80]],
  ['0xFF', [0xff, 0xfe]],
  ['an overlong slash', [0xc0, 0xaf]],
  ['an encoded UTF-16 surrogate', [0xed, 0xa0, 0x80]],
  ['a truncated sequence', [0xe2, 0x82]],
];

const POISONED_JSON: Array<[string, string]> = [
  ['__proto__ at the top', '{"__proto__":{"isAdmin":true}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"isAdmin":true}}}'],
  ['__proto__ nested', '{"a":{"b":{"__proto__":{"isAdmin":true}}}}'],
  ['an escaped __proto__', '{"\\u005f_proto__":{"isAdmin":true}}'],
];

/** Already %-encoded path segments that try to leave their folder or break decoding. */
export const TRAVERSAL_SEGMENTS = [
  '..%2f..%2fetc%2fpasswd',
  '..%2F..%2F..%2Fpackage.json',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%252f..%252fetc%252fpasswd',
  '..%5c..%5c..%5cpackage.json',
  '....%2f%2f....%2f%2fetc%2fpasswd',
  '%c0%ae%c0%ae%2fetc%2fpasswd',
  '%00',
  'abc%00def',
  '%ff%fe',
  '%',
  '%zz',
  'not-a-valid-id',
  '-1',
  "'%20OR%201%3D1--",
  '%F0%9F%92%A9',
  'x'.repeat(300),
];
/** Unencoded, for wildcard (static file) routes. */
const RAW_TRAVERSAL = ['../../etc/passwd', '..\\..\\package.json', './../.././../secret.txt'];

/** A value that satisfies `schema` as far as the generator can tell. */
export function example(schema: JsonSchema | undefined, name = ''): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return example(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = example(schema.properties?.[key], key);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => example(schema.items));
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 1;
      const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
      return min <= 1 && 1 <= max ? 1 : min;
    }
    case 'boolean':
      return true;
    case 'string': {
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (schema.format === 'email') return `${name || 'bad-input'}@example.com`;
      const length = Math.min(Math.max(schema.minLength ?? 1, 16), schema.maxLength ?? 16);
      return 'a'.repeat(length);
    }
    default:
      return 'x';
  }
}

/** A value of the wrong type for `schema` that ajv's type coercion cannot turn into a right one. */
function wrongTypes(schema: JsonSchema): unknown[] {
  const type = schema.type ?? schema.anyOf?.find((s) => s.type !== 'null')?.type;
  switch (type) {
    case 'string':
      return [{ nested: true }, [1, 2]];
    case 'integer':
      return ['not-a-number', 1.5, { nested: true }];
    case 'number':
      return ['not-a-number', { nested: true }];
    case 'boolean':
      return ['maybe', { nested: true }];
    case 'array':
      return [{ not: 'a list' }];
    case 'object':
      return ['text', [1, 2]];
    default:
      return [];
  }
}

const stringProps = (schema: JsonSchema | undefined): Array<[string, JsonSchema]> =>
  Object.entries(schema?.properties ?? {}).filter(
    ([, s]) => s.type === 'string' || s.anyOf?.some((a) => a.type === 'string' && !('const' in a)),
  );

const maxLengthOf = (schema: JsonSchema): number | undefined =>
  schema.maxLength ?? schema.anyOf?.find((a) => a.type === 'string')?.maxLength;

/** Every `:name` and `*` of a route URL. */
export const paramNames = (url: string): string[] =>
  [...url.matchAll(/:([A-Za-z0-9_]+)|\*/g)].map((m) => m[1] ?? '*');

/** The route URL with its params filled: from `override`, then the hints, then the schema. */
export function fillUrl(
  route: RouteEntry,
  hints: CorpusHints,
  override?: { name: string; raw: string },
): string {
  return route.url.replace(/:([A-Za-z0-9_]+)|\*/g, (_m, name: string | undefined) => {
    const key = name ?? '*';
    if (override?.name === key) return override.raw;
    const hinted = hints.params[key];
    if (hinted !== undefined) return encodeURIComponent(hinted);
    return encodeURIComponent(String(example(route.params?.properties?.[key], key)));
  });
}

const DEEP_MARK = '\u2063deep\u2063';
const deepArray = () => '['.repeat(DEEP_LEVELS) + ']'.repeat(DEEP_LEVELS);
const deepObject = () => '{"a":'.repeat(DEEP_LEVELS) + '1' + '}'.repeat(DEEP_LEVELS);

/** Raw bodies that no JSON route may accept; they fail before any handler runs. */
function jsonBodyCases(route: RouteEntry, url: string): BadCase[] {
  const c = (name: string, payload: string | Buffer, headers = JSON_TYPE): BadCase => ({
    family: 'json-body',
    name,
    method: route.method,
    url,
    headers,
    payload,
    expect: 'client-error',
  });
  const field = stringProps(route.body)[0]?.[0] ?? 'text';
  return [
    ...MALFORMED_JSON.map(([what, body]) => c(`malformed JSON: ${what}`, body)),
    c('an empty JSON body', Buffer.alloc(0)),
    ...INVALID_UTF8.map(([what, bytes]) =>
      c(
        `invalid UTF-8: ${what}`,
        Buffer.concat([Buffer.from(`{"${field}":"ok`), Buffer.from(bytes), Buffer.from('"}')]),
      ),
    ),
    c(`${DEEP_LEVELS} nested arrays`, deepArray()),
    c(`${DEEP_LEVELS} nested objects`, deepObject()),
    ...POISONED_JSON.map(([what, body]) => c(`prototype poisoning: ${what}`, body)),
    c('a NUL character in a string', JSON.stringify({ [field]: 'a\u0000b' })),
    c(
      'a body over the 1 MB limit',
      JSON.stringify({ [field]: 'x'.repeat(JSON_BODY_LIMIT + 64 * 1024) }),
    ),
    c('an XML body', '<a>1</a>', { 'content-type': 'application/xml' }),
    c('an unknown content type', 'a=1', { 'content-type': 'application/x-unknown' }),
    c('a malformed content type', '{}', { 'content-type': '; charset=utf-8' }),
  ];
}

/** Well-formed JSON with the wrong shape, for routes whose body has a schema. */
function fieldCases(route: RouteEntry, url: string): BadCase[] {
  const schema = route.body;
  if (!schema) return [];
  const base = (example(schema) ?? {}) as Record<string, unknown>;
  const c = (name: string, value: unknown, expect: Expectation = 'client-error'): BadCase => ({
    family: 'fields',
    name,
    method: route.method,
    url,
    headers: JSON_TYPE,
    payload: JSON.stringify(value),
    expect,
  });
  const cases = [
    c('the body is an array', []),
    c('the body is a string', 'text'),
    c('the body is a number', 42),
  ];
  const props = Object.entries(schema.properties ?? {});
  if (!props.length) return cases;
  if (schema.required?.length) cases.push(c('no fields at all', {}));
  for (const key of schema.required ?? []) {
    const { [key]: _dropped, ...rest } = base;
    cases.push(c(`missing '${key}'`, rest));
  }
  for (const [key, prop] of props) {
    for (const wrong of wrongTypes(prop)) {
      cases.push(
        c(`'${key}' of the wrong type (${JSON.stringify(wrong)})`, { ...base, [key]: wrong }),
      );
    }
    const deep = c(`'${key}' nested ${DEEP_LEVELS} levels deep`, null);
    deep.payload = JSON.stringify({ ...base, [key]: DEEP_MARK }).replace(
      JSON.stringify(DEEP_MARK),
      deepArray(),
    );
    cases.push(deep);
  }
  if (schema.additionalProperties === false) {
    cases.push(c('an unknown field', { ...base, unexpectedField: 1 }));
  }
  for (const [key, prop] of stringProps(schema)) {
    const allowed = (maxLengthOf(prop) ?? 0) >= ONE_MB_STRING_LENGTH;
    cases.push(
      c(
        `a 1 MB string in '${key}'`,
        { ...base, [key]: 'x'.repeat(ONE_MB_STRING_LENGTH) },
        allowed ? 'client-error-or-success' : 'client-error',
      ),
    );
    cases.push(c(`a NUL character in '${key}'`, { ...base, [key]: 'a\u0000b' }));
  }
  return cases;
}

/** Query strings: wrong types, too long, unknown, repeated, NUL, broken %-escapes. */
function queryCases(route: RouteEntry, url: string): BadCase[] {
  const c = (name: string, query: string, expect: Expectation = 'client-error'): BadCase => ({
    family: 'query',
    name,
    method: route.method,
    url: `${url}?${query}`,
    headers: {},
    expect,
  });
  // Every route, schema or not: a NUL in the query never reaches a handler.
  const cases = [c('a NUL in the query string', 'q=a%00b')];
  const schema = route.querystring;
  if (!schema?.properties) return cases;
  for (const [key, prop] of Object.entries(schema.properties)) {
    const type = prop.type ?? prop.anyOf?.[0]?.type;
    if (type === 'integer' || type === 'number') {
      for (const bad of ['abc', '1.5', '-5', '1e309', '99999999999999999999', '%zz'])
        cases.push(c(`${key}=${bad}`, `${key}=${bad}`));
      cases.push(c(`${key} given twice`, `${key}=1&${key}=2`));
    } else if (type === 'boolean') {
      cases.push(c(`${key}=maybe`, `${key}=maybe`));
    } else if (prop.anyOf?.every((a) => 'const' in a)) {
      cases.push(c(`${key}=an unknown value`, `${key}=not-one-of-them`));
    } else if (type === 'string') {
      cases.push(c(`${key} of 100,000 characters`, `${key}=${'x'.repeat(100_000)}`));
      // Odd but possibly valid text (a search term): any answer but a 5xx.
      const nested = '['.repeat(Math.floor(Math.min(maxLengthOf(prop) ?? 200, 8000) / 2));
      cases.push(
        c(
          `${key} of deeply nested JSON text`,
          `${key}=${encodeURIComponent(nested)}`,
          'client-error-or-success',
        ),
      );
      cases.push(c(`${key} with invalid UTF-8`, `${key}=%ff%fe`, 'client-error-or-success'));
      // JSON text with an escaped NUL: harmless as text, a NUL once a route parses it as JSON.
      cases.push(
        c(
          `${key} of JSON text with an escaped NUL`,
          `${key}=${encodeURIComponent('{"title":"a\\u0000b","status":"a\\u0000b"}')}`,
          'client-error-or-success',
        ),
      );
    }
  }
  if (schema.additionalProperties === false) cases.push(c('an unknown parameter', 'unexpected=1'));
  return cases;
}

/** Every `:param` and `*`: traversal, encodings that do not decode, NUL, wrong formats, length. */
function paramCases(route: RouteEntry, hints: CorpusHints): BadCase[] {
  const cases: BadCase[] = [];
  for (const name of paramNames(route.url)) {
    const segments = name === '*' ? [...TRAVERSAL_SEGMENTS, ...RAW_TRAVERSAL] : TRAVERSAL_SEGMENTS;
    for (const raw of segments) {
      cases.push({
        family: 'params',
        name: `${name} = ${raw.length > 40 ? `${raw.slice(0, 12)}… (${raw.length} chars)` : raw}`,
        method: route.method,
        url: fillUrl(route, hints, { name, raw }),
        headers: BODY_METHODS.has(route.method) && !route.multipart ? JSON_TYPE : {},
        ...(BODY_METHODS.has(route.method) && !route.multipart
          ? { payload: JSON.stringify(example(route.body) ?? {}) }
          : {}),
        expect: 'client-error',
      });
    }
  }
  return cases;
}

/** Methods no route of this path answers. */
export function methodCases(path: string, registered: Set<string>, url: string): BadCase[] {
  return PROBE_METHODS.filter((m) => !registered.has(m)).map((method) => ({
    family: 'methods' as const,
    name: `${method} ${path}`,
    method,
    url,
    headers: {},
    expect: 'not-found-or-not-allowed' as const,
  }));
}

// ─── Multipart ─────────────────────────────────────────────────────────────

export interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body; `cutAt` truncates it (no closing boundary). */
export function formData(parts: FormPart[], opts: { cutAt?: number; boundary?: string } = {}) {
  const boundary = opts.boundary ?? `----badinput${randomUUID().replaceAll('-', '')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const type = part.filename
      ? `\r\nContent-Type: ${part.type ?? 'application/octet-stream'}`
      : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const payload = Buffer.concat(chunks);
  return {
    payload: opts.cutAt === undefined ? payload : payload.subarray(0, opts.cutAt),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads that must be refused (or, for a harmless file under a hostile name, stored safely). */
export function multipartCases(route: RouteEntry, url: string, hints: CorpusHints, png: Buffer) {
  const fields = Object.entries(hints.multipartFields[route.url] ?? {}).map(([name, value]) => ({
    name,
    value,
  }));
  const image = (value: Buffer, filename = 'photo.png', type = 'image/png'): FormPart => ({
    name: 'image',
    value,
    filename,
    type,
  });
  const c = (
    name: string,
    form: { payload: Buffer; headers: Record<string, string> },
    expect: Expectation = 'client-error',
  ): BadCase => ({ family: 'multipart', name, method: route.method, url, ...form, expect });
  const oversized = Buffer.concat([png.subarray(0, 8), Buffer.alloc(UPLOAD_LIMIT + 1024)]);
  const full = formData([...fields, image(png)]);
  return [
    c(
      'too many parts (40 fields)',
      formData([
        ...fields,
        ...Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, value: 'x' })),
      ]),
    ),
    c('too many files (3 images)', formData([...fields, image(png), image(png), image(png)])),
    c(
      'a text field where the image belongs',
      formData([...fields, { name: 'image', value: 'not a file' }]),
    ),
    c('a truncated PNG', formData([...fields, image(png.subarray(0, 60))])),
    c('a file over the 10 MB limit', formData([...fields, image(oversized)])),
    c(
      'a PHP script named photo.png',
      formData([...fields, image(Buffer.from('<?php system($_GET["c"]); ?>'))]),
    ),
    c(
      "a text file named '../../../etc/passwd'",
      formData([...fields, image(Buffer.from('root:x:0:0'), '../../../etc/passwd', 'text/plain')]),
    ),
    // A real image under a hostile name: stored under a name of ours, or refused.
    c(
      "a PNG named '../../evil.png'",
      formData([...fields, image(png, '../../evil.png')]),
      'client-error-or-success',
    ),
    c(
      "a PNG named '..\\..\\evil.png'",
      formData([...fields, image(png, '..\\..\\evil.png')]),
      'client-error-or-success',
    ),
    c('a body cut off in the middle of the file', {
      ...full,
      payload: full.payload.subarray(0, full.payload.length - 200),
    }),
    c('no boundary in the content type', {
      payload: full.payload,
      headers: { 'content-type': 'multipart/form-data' },
    }),
    c(
      'a field named __proto__',
      formData([...fields, { name: '__proto__', value: 'x' }, image(png)]),
    ),
    c(
      'a 1 MB text field',
      formData([
        ...fields.filter((f) => f.name !== 'prompt'),
        { name: 'prompt', value: 'x'.repeat(ONE_MB_STRING_LENGTH) },
      ]),
    ),
    c(
      'a NUL character in a text field',
      formData([
        ...fields.filter((f) => f.name !== 'prompt'),
        { name: 'prompt', value: 'a red fox\u0000 in the snow' },
        image(png),
      ]),
    ),
    c('JSON instead of a form', { payload: Buffer.from('{"image":"x"}'), headers: JSON_TYPE }),
  ];
}

/** Every case for one route (methods are per path, see `methodCases`). */
export function casesFor(route: RouteEntry, hints: CorpusHints, png: Buffer): BadCase[] {
  const url = fillUrl(route, hints);
  const cases = [...paramCases(route, hints), ...queryCases(route, url)];
  if (route.multipart) cases.push(...multipartCases(route, url, hints, png));
  else if (BODY_METHODS.has(route.method)) {
    cases.push(...jsonBodyCases(route, url), ...fieldCases(route, url));
  }
  return cases;
}

/**
 * Strings and numbers in request schemas without an upper bound (a maxLength or maximum, a
 * constant, an enum, or a uuid format).
 */
export function unboundedValues(schema: JsonSchema | undefined, at: string): string[] {
  if (!schema) return [];
  const out: string[] = [];
  const fixed = schema.const !== undefined || schema.enum !== undefined;
  if (
    schema.type === 'string' &&
    !fixed &&
    schema.maxLength === undefined &&
    schema.format !== 'uuid'
  )
    out.push(`${at} (string without maxLength)`);
  if (
    (schema.type === 'integer' || schema.type === 'number') &&
    !fixed &&
    schema.maximum === undefined
  )
    out.push(`${at} (number without maximum)`);
  for (const [key, prop] of Object.entries(schema.properties ?? {}))
    out.push(...unboundedValues(prop, `${at}.${key}`));
  for (const [key, prop] of Object.entries(schema.patternProperties ?? {}))
    out.push(...unboundedValues(prop, `${at}[${key}]`));
  if (schema.items) out.push(...unboundedValues(schema.items, `${at}[]`));
  schema.anyOf?.forEach((s, i) => out.push(...unboundedValues(s, `${at}|${i}`)));
  return out;
}
