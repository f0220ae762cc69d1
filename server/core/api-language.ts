/**
 * API messages in the language the client asks for (issue 21; issue 32, item 3): every JSON
 * answer's `message` (errors and confirmations alike) and a video task's status and failure are
 * `ApiText`s, a catalogue key with parameters (server/core/api-messages.ts); this hook renders them
 * once, when the answer is serialized, in the language `Accept-Language` prefers. Codes never
 * change, so clients that branch on them are unaffected; English stays the default.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { localeFromAcceptLanguage, type Locale } from '../../shared/locales.ts';
import { ApiText } from './api-messages.ts';

/** Fields of an answer's `data` a person reads: a video task's status and failure, a notice. */
const DATA_MESSAGE_FIELDS = ['status_message', 'error_message', 'message'] as const;

/** Lists of such rows inside `data`: a page of history items, the admin's tasks. */
const DATA_LISTS = ['items', 'tasks'] as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** A task (or anything with its message fields) with those fields as text in the language. */
function renderFields(item: unknown, locale: Locale): unknown {
  if (!isObject(item) || Array.isArray(item)) return item;
  let out: Json | null = null;
  for (const field of DATA_MESSAGE_FIELDS) {
    const text = item[field];
    if (!(text instanceof ApiText)) continue;
    out ??= { ...item };
    out[field] = text.render(locale);
  }
  return out ?? item;
}

/**
 * The answer in a language: its `message`, and the message fields of `data` — a task, a list of
 * tasks, or a page of them (DATA_LISTS).
 */
export function renderPayload(payload: Json, locale: Locale): Json {
  const out: Json = { ...payload };
  if (payload.message instanceof ApiText) out.message = payload.message.render(locale);
  const data = payload.data;
  if (Array.isArray(data)) out.data = data.map((item) => renderFields(item, locale));
  else if (isObject(data)) {
    const rendered = renderFields(data, locale) as Json;
    const lists: Json = {};
    for (const key of DATA_LISTS) {
      if (Array.isArray(rendered[key])) {
        lists[key] = (rendered[key] as unknown[]).map((item) => renderFields(item, locale));
      }
    }
    out.data = { ...rendered, ...lists };
  }
  return out;
}

const isText = (value: unknown) => value instanceof ApiText;

/** Whether an answer carries text a person reads (so it depends on Accept-Language). */
function hasText(payload: unknown): payload is Json {
  if (!isObject(payload)) return false;
  if (isText(payload.message)) return true;
  const data = payload.data;
  const rows = Array.isArray(data)
    ? data
    : isObject(data)
      ? [data, ...DATA_LISTS.flatMap((key) => (Array.isArray(data[key]) ? data[key] : []))]
      : [];
  return rows.some(
    (row) => isObject(row) && DATA_MESSAGE_FIELDS.some((field) => isText(row[field])),
  );
}

export const apiLanguagePlugin = fp(
  async (app: FastifyInstance) => {
    // Callback style, no promise: it runs on every JSON answer, and most carry no text. Answers
    // sent as bytes or strings (cached public reads, pages) never reach it.
    app.addHook('preSerialization', (request, reply, payload, done) => {
      if (!hasText(payload)) return done(null, payload);
      // The same address answers in either language: caches must key on the header.
      reply.header('vary', mergeVary(reply.getHeader('vary'), 'Accept-Language'));
      done(
        null,
        renderPayload(payload, localeFromAcceptLanguage(request.headers['accept-language'])),
      );
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
