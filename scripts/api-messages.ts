/**
 * `node scripts/api-messages.ts`: writes server/core/api-message-keys.ts, the TypeScript type of
 * the API's message catalogue (messages/api/en.json): each key with the parameters its English
 * sentence uses, so `msg(key, params)` with a mistyped key or a missing parameter does not compile.
 * tests/unit/api-messages.test.ts fails when the written file is not what this makes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { format, resolveConfig } from 'prettier';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const API_MESSAGES_DIR = path.join(ROOT, 'messages/api');
export const KEYS_FILE = path.join(ROOT, 'server/core/api-message-keys.ts');

/** The catalogue of one language, messages/api/{locale}.json. */
export function readApiCatalogue(locale: string): Record<string, string> {
  return JSON.parse(readFileSync(path.join(API_MESSAGES_DIR, `${locale}.json`), 'utf8')) as Record<
    string,
    string
  >;
}

type Element = ReturnType<IntlMessageFormat['getAst']>[number];
/** Element types of the ICU parser whose argument is a number: 2 number, 6 plural. */
const NUMERIC = new Set([2, 6]);

/** The arguments a message uses, each with whether it must be a number (plural, number). */
export function messageArguments(text: string, locale: string): Map<string, 'number' | 'any'> {
  const found = new Map<string, 'number' | 'any'>();
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      // Literal text (type 0) has a value too, but it is no argument.
      if ('value' in element && typeof element.value === 'string' && element.type !== 0) {
        const kind = NUMERIC.has(element.type) ? 'number' : 'any';
        if (found.get(element.value) !== 'number') found.set(element.value, kind);
      }
      if ('options' in element) {
        for (const option of Object.values(element.options)) walk(option.value as Element[]);
      }
    }
  };
  walk(new IntlMessageFormat(text, locale, undefined, { ignoreTag: true }).getAst());
  return found;
}

/** The text of server/core/api-message-keys.ts for the English catalogue. */
export async function apiMessageKeysFile(): Promise<string> {
  const lines = Object.entries(readApiCatalogue('en')).map(([key, text]) => {
    const args = [...messageArguments(text, 'en')].map(
      ([name, kind]) => `${name}: ${kind === 'number' ? 'number' : 'Value'}`,
    );
    return `  ${JSON.stringify(key)}: ${args.length ? `{ ${args.join('; ')} }` : 'NoParams'};`;
  });
  const text = [
    '// Written by scripts/api-messages.ts from messages/api/en.json: edit the catalogue, then run',
    '// `node scripts/api-messages.ts`.',
    '/** A sentence without values. */',
    'type NoParams = Record<never, never>;',
    '',
    '/**',
    ' * Each message of the API with the parameters its sentence takes; `Value` is what a text',
    ' * parameter may be (api-messages.ts: a string, a number or another message).',
    ' */',
    'export interface ApiMessageParams<Value> {',
    ...lines,
    '}',
    '',
  ].join('\n');
  return format(text, { ...(await resolveConfig(KEYS_FILE)), filepath: KEYS_FILE });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  writeFileSync(KEYS_FILE, await apiMessageKeysFile());
  console.log(
    `server/core/api-message-keys.ts: ${Object.keys(readApiCatalogue('en')).length} keys`,
  );
}
