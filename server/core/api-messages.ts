/**
 * The sentences the API sends a person (issue 32, item 3): one catalogue keyed by message id,
 * messages/api/{locale}.json, in ICU MessageFormat with named parameters. Services throw or
 * return `msg(key, params)`; the language is chosen once, when the answer is serialized
 * (server/core/api-language.ts). The keys and their parameters are typed from en.json
 * (server/core/api-message-keys.ts, written by scripts/api-messages.ts), so a mistyped key or a
 * missing parameter does not compile.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import en from '../../messages/api/en.json' with { type: 'json' };
import zhCN from '../../messages/api/zh-CN.json' with { type: 'json' };
import type { Locale } from '../../shared/locales.ts';
import type { ApiMessageParams as ParamsOf } from './api-message-keys.ts';

/** Each message's parameters (the generated table, with this module's value type). */
type ApiMessageParams = ParamsOf<MessageValue>;

/** A message id of the catalogue. */
export type MessageKey = keyof ApiMessageParams;

/** The catalogue of each language: message id → ICU MessageFormat text. */
export const API_CATALOGUES: Readonly<Record<Locale, Readonly<Record<string, string>>>> = {
  en,
  'zh-CN': zhCN,
};

/** A value filled into a message: text, a number, or another message (rendered alike). */
export type MessageValue = string | number | ApiText;

/**
 * A sentence not yet in a language: its key and parameters. It becomes text when the answer is
 * serialized; serialized any other way (a log line, JSON.stringify) it reads as English.
 */
export class ApiText {
  readonly key: MessageKey;
  readonly params: Readonly<Record<string, MessageValue>>;
  constructor(key: MessageKey, params: Readonly<Record<string, MessageValue>> = {}) {
    this.key = key;
    this.params = params;
  }

  /** The sentence in a language. */
  render(locale: Locale): string {
    return renderMessage(this.key, this.params, locale);
  }

  /** English: what a log line or a payload the language hook did not see shows. */
  toJSON(): string {
    return this.render('en');
  }

  toString(): string {
    return this.render('en');
  }
}

/** The parameter list of `msg` for a key: none when its sentence has no values. */
type ParamsArg<K extends MessageKey> = keyof ApiMessageParams[K] extends never
  ? []
  : [params: ApiMessageParams[K]];

/** The message `key` with its parameters, to throw or return; rendered at serialization. */
export function msg<K extends MessageKey>(key: K, ...params: ParamsArg<K>): ApiText {
  return new ApiText(key, (params[0] ?? {}) as Record<string, MessageValue>);
}

/**
 * `msg` for a field an answer's schema types as text (a confirmation's `message`, a task's
 * status): the language hook turns it into text before the schema serializes the answer.
 */
export function answerText<K extends MessageKey>(key: K, ...params: ParamsArg<K>): string {
  return msg(key, ...params) as unknown as string;
}

/** Compiled formatters by locale and key: each sentence is parsed once per process. */
const formatters = new Map<string, IntlMessageFormat>();

function formatter(key: string, locale: Locale): IntlMessageFormat {
  const id = `${locale}\u0000${key}`;
  let compiled = formatters.get(id);
  if (!compiled) {
    const source = API_CATALOGUES[locale][key] ?? API_CATALOGUES.en[key];
    if (source === undefined) throw new Error(`messages/api: no message "${key}"`);
    // ignoreTag: sentences quote `<uuid>` and such, which are text, not markup.
    compiled = new IntlMessageFormat(source, locale, undefined, { ignoreTag: true });
    formatters.set(id, compiled);
  }
  return compiled;
}

/** The sentence `key` in `locale`, with its parameters (nested messages in the same language). */
export function renderMessage(
  key: string,
  params: Readonly<Record<string, MessageValue>>,
  locale: Locale,
): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    values[name] = value instanceof ApiText ? value.render(locale) : value;
  }
  return String(formatter(key, locale).format(values));
}
