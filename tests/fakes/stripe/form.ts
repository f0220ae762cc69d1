/** Stripe's form encoding for the Stripe fake: the parser and the typed parameter readers. */
import { invalid, notImplemented } from './errors.ts';

export type Json = Record<string, unknown>;
export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

/** Joins a bracket path the way Stripe names params in errors: `line_items[0][quantity]`. */
export const paramPath = (prefix: string, key: string | number): string =>
  prefix === '' ? String(key) : `${prefix}[${key}]`;

/**
 * Decodes Stripe's form encoding (`a[b][0][c]=v`, `a[]=v`) into nested objects; objects whose keys
 * are all indices become arrays, except metadata, where "0" is an ordinary key.
 */
export function parseForm(raw: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match?.[1]) throw invalid(`Invalid parameter name: ${key}`, key);
    const segments = [
      match[1],
      ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? ''),
    ];
    let node: FormObject = root;
    for (let i = 0; i < segments.length; i++) {
      let segment = segments[i] ?? '';
      // `a[]=x` appends, as Rack-style parsers do.
      if (segment === '') segment = String(Object.keys(node).length);
      if (i === segments.length - 1) {
        node[segment] = value;
        break;
      }
      const next = node[segment];
      if (next === undefined) {
        const created: FormObject = {};
        node[segment] = created;
        node = created;
      } else if (typeof next === 'object' && !Array.isArray(next)) {
        node = next;
      } else {
        throw invalid(`Invalid hash`, segments.slice(0, i + 1).join('['));
      }
    }
  }
  return arrayify(root, '') as FormObject;
}

function arrayify(value: FormValue, key: string): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, arrayify(v, k)] as const);
  const isList =
    key !== 'metadata' && entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k));
  if (isList) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

export const isFormObject = (v: FormValue | undefined): v is FormObject =>
  typeof v === 'object' && !Array.isArray(v);

/** Stripe's own words for a wrong type, e.g. `Invalid integer: abc`. */
function showValue(v: FormValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

// Typed readers: absent or empty string → undefined (Stripe treats `x=` as "unset").
export function readString(obj: FormObject, key: string, prefix: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string')
    throw invalid(`Invalid string: ${showValue(v)}`, paramPath(prefix, key));
  return v;
}

export function readInt(
  obj: FormObject,
  key: string,
  prefix: string,
  min?: number,
): number | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  const param = paramPath(prefix, key);
  if (typeof v !== 'string' || !/^-?\d+$/.test(v))
    throw invalid(`Invalid integer: ${showValue(v)}`, param);
  const n = Number(v);
  if (min !== undefined && n < min) {
    throw invalid(`This value must be greater than or equal to ${min}.`, param);
  }
  return n;
}

export function readBool(obj: FormObject, key: string, prefix: string): boolean | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw invalid(`Invalid boolean: ${showValue(v)}`, paramPath(prefix, key));
}

export function readEnum<T extends string>(
  obj: FormObject,
  key: string,
  prefix: string,
  allowed: readonly T[],
): T | undefined {
  const v = readString(obj, key, prefix);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) {
    const list =
      allowed.length > 1
        ? `${allowed.slice(0, -1).join(', ')}, or ${allowed[allowed.length - 1]}`
        : allowed.join('');
    throw invalid(`Invalid ${key}: must be one of ${list}`, paramPath(prefix, key));
  }
  return v as T;
}

export function readHash(obj: FormObject, key: string, prefix: string): FormObject | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (!isFormObject(v)) throw invalid('Invalid object', paramPath(prefix, key));
  return v;
}

export function readArray(obj: FormObject, key: string, prefix: string): FormValue[] | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (!Array.isArray(v)) throw invalid('Invalid array', paramPath(prefix, key));
  return v;
}

/** Unknown keys are Stripe's "Received unknown parameter"; known but unmodelled ones fail loudly. */
export function checkKeys(
  obj: FormObject,
  prefix: string,
  known: readonly string[],
  implemented: readonly string[],
): void {
  for (const key of Object.keys(obj)) {
    const param = paramPath(prefix, key);
    if (!known.includes(key)) throw invalid(`Received unknown parameter: ${param}`, param);
    if (!implemented.includes(key)) throw notImplemented(param);
  }
}

/** Metadata limits as Stripe enforces them; an empty value means "no key" (delete on update). */
export function readMetadata(
  obj: FormObject,
  key: string,
  prefix: string,
): Record<string, string | null> | undefined {
  const raw = obj[key];
  if (raw === undefined) return undefined;
  const param = paramPath(prefix, key);
  // `metadata=` clears all keys on update.
  if (raw === '') return {};
  if (!isFormObject(raw)) throw invalid('Invalid object', param);
  const entries = Object.entries(raw);
  if (entries.length > 50) throw invalid('Metadata can have up to 50 keys.', param);
  const out: Record<string, string | null> = {};
  for (const [k, v] of entries) {
    if (typeof v !== 'string')
      throw invalid(`Invalid string: ${showValue(v)}`, paramPath(param, k));
    if (k.length > 40) {
      throw invalid(
        `Metadata keys can have up to 40 characters, but you passed in a key that is ${k.length} characters. Invalid key: '${k}'`,
        paramPath(param, k),
      );
    }
    if (v.length > 500) {
      throw invalid(
        `Metadata values can have up to 500 characters, but you passed in a value that is ${v.length} characters. Invalid value: '${v}'`,
        paramPath(param, k),
      );
    }
    out[k] = v === '' ? null : v;
  }
  return out;
}

/** Metadata for a new object: unset keys simply do not exist. */
export function createMetadata(
  meta: Record<string, string | null> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta ?? {})) if (v !== null) out[k] = v;
  return out;
}

export function readUrl(obj: FormObject, key: string, prefix: string): string | undefined {
  const v = readString(obj, key, prefix);
  if (v === undefined) return undefined;
  // Stripe accepts the literal {CHECKOUT_SESSION_ID} template inside the URL.
  if (!URL.canParse(v) || !/^https?:/.test(v))
    throw invalid('Not a valid URL', paramPath(prefix, key));
  return v;
}
