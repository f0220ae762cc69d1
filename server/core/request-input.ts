/**
 * What the API accepts before any route sees it. JSON bodies are parsed strictly: UTF-8 only (a
 * lenient decoder would turn bad bytes into U+FFFD and store them), no `__proto__` or
 * `constructor.prototype` keys, no NUL characters (PostgreSQL text cannot hold them, so they
 * would fail deep in a query as a 500), and at most MAX_JSON_DEPTH levels of nesting (no request
 * of this API nests more than a few, and validators and services walk what they are given).
 * Addresses with a NUL (%00) are refused for the same reason as NUL in bodies.
 */
import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from './errors.ts';
import { msg } from './api-messages.ts';

export const MAX_JSON_DEPTH = 32;

const INPUT_MESSAGES = {
  empty: msg('request.empty_body'),
  utf8: msg('request.invalid_utf8'),
  json: msg('request.invalid_json'),
  tooDeep: msg('request.json_too_deep', { max: MAX_JSON_DEPTH }),
  nulInBody: msg('request.nul_in_body'),
  nulInUrl: msg('request.nul_in_url'),
  nulInField: (field: string) => msg('request.nul_in_field', { field }),
  notFinite: (field: string) => msg('request.not_finite', { field }),
  reservedKey: (key: string) => msg('request.reserved_key', { key }),
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes of an `application/json` body → its value, or a 400 naming what is wrong with it. */
function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) throw badRequest(INPUT_MESSAGES.empty, 'EMPTY_BODY');
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    throw badRequest(INPUT_MESSAGES.utf8, 'INVALID_UTF8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(INPUT_MESSAGES.json, 'INVALID_JSON');
  }
  checkJsonValue(value);
  return value;
}

/** Walks a parsed value without recursion, so a hostile depth cannot overflow the stack here. */
function checkJsonValue(root: unknown): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, depth } = next;
    if (typeof value === 'string') {
      if (value.includes('\0')) throw badRequest(INPUT_MESSAGES.nulInBody, 'NUL_CHARACTER');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) throw badRequest(INPUT_MESSAGES.tooDeep, 'JSON_TOO_DEEP');
    if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      // JSON.parse makes `__proto__` an own key; merged into another object it would set that
      // object's prototype.
      if (key === '__proto__') throw badRequest(INPUT_MESSAGES.reservedKey(key), 'FORBIDDEN_KEY');
      if (key === 'constructor' && child && typeof child === 'object' && 'prototype' in child) {
        throw badRequest(INPUT_MESSAGES.reservedKey('constructor.prototype'), 'FORBIDDEN_KEY');
      }
      if (key.includes('\0')) throw badRequest(INPUT_MESSAGES.nulInBody, 'NUL_CHARACTER');
      stack.push({ value: child, depth: depth + 1 });
    }
  }
}

/** For form fields a route reads itself (multipart): the same rule as for JSON bodies. */
export function refuseNul(value: string, field: string): void {
  if (value.includes('\0')) throw badRequest(INPUT_MESSAGES.nulInField(field), 'NUL_CHARACTER');
}

/**
 * ajv coerces a query value such as `1e309` to Infinity, and then skips `minimum`/`maximum`
 * (it only compares finite numbers), so a validated number can still be infinite.
 */
function refuseInfinity(values: unknown): void {
  if (!values || typeof values !== 'object') return;
  // Runs on every request: no arrays built for the (mostly zero or one) strings it looks at.
  for (const key in values) {
    const value = (values as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) refuseNotFinite(key, item);
    } else refuseNotFinite(key, value);
  }
}

/** Whether a JSON schema allows a number or an integer anywhere in it. */
export function hasNumbers(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if (Array.isArray(schema)) return schema.some(hasNumbers);
  const { type } = schema as { type?: unknown };
  if (type === 'number' || type === 'integer') return true;
  if (Array.isArray(type) && (type.includes('number') || type.includes('integer'))) return true;
  return Object.values(schema).some(hasNumbers);
}

function refuseNotFinite(key: string, value: unknown): void {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw badRequest(INPUT_MESSAGES.notFinite(key), 'VALIDATION_ERROR');
}

/**
 * Register before the routes and after the security headers (a refusal here still carries them):
 * it replaces Fastify's JSON parser for every scope created after.
 */
export const requestInputPlugin = fp(
  async (app: FastifyInstance) => {
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer' },
      (_request, body: Buffer, done) => {
        try {
          done(null, parseJsonBody(body));
        } catch (error) {
          done(error as Error, undefined);
        }
      },
    );
    // Callback-style hooks: they run on every request, and need no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.url.includes('%00') || request.url.includes('\0')) {
        done(badRequest(INPUT_MESSAGES.nulInUrl, 'NUL_CHARACTER'));
        return;
      }
      done();
    });
    // Only where ajv may have made a number: a route whose query or path parameters' schema has
    // one (no hook run per request elsewhere).
    const refuseInfinite: preHandlerHookHandler = (request, _reply, done) => {
      try {
        refuseInfinity(request.query);
        refuseInfinity(request.params);
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
    };
    app.addHook('onRoute', (route) => {
      const schema = route.schema as { querystring?: unknown; params?: unknown } | undefined;
      if (!hasNumbers(schema?.querystring) && !hasNumbers(schema?.params)) return;
      route.preHandler = [refuseInfinite, ...[route.preHandler ?? []].flat()];
    });
  },
  { name: 'request-input', dependencies: ['errors'] },
);
