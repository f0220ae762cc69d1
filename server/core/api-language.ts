/**
 * API messages in the language the client asks for (issue 21): every JSON answer's `message`
 * (errors and confirmations alike) is translated when `Accept-Language` prefers Chinese; codes
 * never change, so clients that branch on them are unaffected. English is the source: services
 * keep throwing English sentences, and server/core/api-messages-zh.ts holds their Chinese, exact
 * sentences by text and sentences with values (an email, a size) by pattern. A sentence with no
 * Chinese yet stays English (tests/unit/api-messages.test.ts lists every message the server can
 * send and fails on one without a translation).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { localeFromAcceptLanguage, type Locale } from '../../shared/locales.ts';
import { API_MESSAGE_PATTERNS_ZH, API_MESSAGES_ZH } from './api-messages-zh.ts';

/** A message in a language: the Chinese for a known English sentence, else the sentence. */
export function translateApiMessage(message: string, locale: Locale): string {
  if (locale === 'en') return message;
  const exact = API_MESSAGES_ZH[message];
  if (exact !== undefined) return exact;
  for (const [pattern, render] of API_MESSAGE_PATTERNS_ZH) {
    const match = pattern.exec(message);
    if (match) return render(match);
  }
  return message;
}

/** Fields of an answer's `data` a person reads: a video task's status and failure, a notice. */
const DATA_MESSAGE_FIELDS = ['status_message', 'error_message', 'message'] as const;

/** Lists of such rows inside `data`: a page of history items, the admin's tasks. */
const DATA_LISTS = ['items', 'tasks'] as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** A task (or anything with its message fields) with those fields in the language. */
function translateFields(item: unknown, locale: Locale): unknown {
  if (!isObject(item) || Array.isArray(item)) return item;
  let out: Json | null = null;
  for (const field of DATA_MESSAGE_FIELDS) {
    const text = item[field];
    if (typeof text !== 'string') continue;
    out ??= { ...item };
    out[field] = translateApiMessage(text, locale);
  }
  return out ?? item;
}

/**
 * The answer in a language: its `message`, and the message fields of `data` — a task, a list of
 * tasks, or a page of them (DATA_LISTS).
 */
export function translatePayload(payload: Json, locale: Locale): Json {
  const out: Json = { ...payload };
  if (typeof payload.message === 'string')
    out.message = translateApiMessage(payload.message, locale);
  const data = payload.data;
  if (Array.isArray(data)) out.data = data.map((item) => translateFields(item, locale));
  else if (isObject(data)) {
    const translated = translateFields(data, locale) as Json;
    const lists: Json = {};
    for (const key of DATA_LISTS) {
      if (Array.isArray(translated[key])) {
        lists[key] = (translated[key] as unknown[]).map((item) => translateFields(item, locale));
      }
    }
    out.data = { ...translated, ...lists };
  }
  return out;
}

/** Whether an answer carries text a person reads (so it depends on Accept-Language). */
function hasText(payload: unknown): payload is Json {
  if (!isObject(payload)) return false;
  if (typeof payload.message === 'string') return true;
  const data = payload.data;
  const rows = Array.isArray(data)
    ? data
    : isObject(data)
      ? [data, ...DATA_LISTS.flatMap((key) => (Array.isArray(data[key]) ? data[key] : []))]
      : [];
  return rows.some((row) => isObject(row) && DATA_MESSAGE_FIELDS.some((field) => field in row));
}

export const apiLanguagePlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preSerialization', async (request, reply, payload) => {
      if (!hasText(payload)) return payload;
      // The same address answers in either language: caches must key on the header.
      reply.header('vary', mergeVary(reply.getHeader('vary'), 'Accept-Language'));
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      if (locale === 'en') return payload;
      return translatePayload(payload, locale);
    });
  },
  { name: 'api-language' },
);

function mergeVary(current: unknown, field: string): string {
  const existing =
    typeof current === 'string' ? current : Array.isArray(current) ? current.join(', ') : '';
  const fields = existing
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.some((f) => f.toLowerCase() === field.toLowerCase() || f === '*')) return existing;
  return [...fields, field].join(', ');
}
