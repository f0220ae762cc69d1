/**
 * The message compiler (issue 21): messages/{locale}.json → site/i18n/messages.ts, one exported
 * function per message, in the manner of Paraglide JS. An island imports the functions it uses
 * and the bundler drops the rest, so an island ships only its own messages (in both languages).
 *
 * Paraglide itself loads its file-format plugin from a CDN when it compiles, and this project
 * builds where only the npm registry is reachable; the compiler is small enough to own.
 *
 * A message is a string with `{name}` parameters: `"{count} credits"` compiles to
 * `credits_count(locale, { count })`. Both languages must have the same keys and parameters
 * (checkMessages; tests/unit/messages.test.ts runs it and checks the compiled file is current).
 */
import { LOCALES, type Locale } from './locales.ts';

export type MessageSources = Record<Locale, Record<string, string>>;

const KEY = /^[a-z][a-z0-9_]*$/;
const PARAM = /\{([a-zA-Z][a-zA-Z0-9_]*)\}/g;

/** The parameter names a message uses, sorted. */
export function paramsOf(text: string): string[] {
  return [...new Set([...text.matchAll(PARAM)].map((match) => match[1]!))].sort();
}

/** Every problem with a set of message files: missing or extra keys, empty values, bad params. */
export function checkMessages(sources: MessageSources): string[] {
  const problems: string[] = [];
  const keys = new Set(LOCALES.flatMap((locale) => Object.keys(sources[locale] ?? {})));
  for (const key of keys) {
    if (!KEY.test(key)) problems.push(`${key}: keys are snake_case identifiers`);
    const english = sources.en[key];
    for (const locale of LOCALES) {
      const text = sources[locale]?.[key];
      if (text === undefined) problems.push(`${key}: missing in messages/${locale}.json`);
      else if (typeof text !== 'string' || text.trim() === '') {
        problems.push(`${key}: empty in messages/${locale}.json`);
      } else if (english !== undefined && paramsOf(text).join() !== paramsOf(english).join()) {
        problems.push(`${key}: parameters differ between en and ${locale}`);
      }
    }
  }
  return problems;
}

/** A JavaScript expression building the message text from `p` (its parameters). */
function expression(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(PARAM)) {
    if (match.index > last) parts.push(JSON.stringify(text.slice(last, match.index)));
    parts.push(`String(p.${match[1]})`);
    last = match.index + match[0].length;
  }
  if (last < text.length || parts.length === 0) parts.push(JSON.stringify(text.slice(last)));
  return parts.join(' + ');
}

/**
 * The compiled messages, by file path under site/i18n/ (throws when checkMessages finds a
 * problem): `messages/{key}.ts` for each message, `messages/_{prefix}.ts` re-exporting those whose
 * key starts with `{prefix}_` (one per part of the site, so no index outgrows the 400 lines of
 * tests/unit/file-size.test.ts), and `messages.ts`, which re-exports those. One module per
 * message, as Paraglide's "message-modules" output: the bundler places each module in the chunk
 * of the islands that use it, so a page never loads another page's messages.
 */
export function compileMessages(sources: MessageSources): Record<string, string> {
  const problems = checkMessages(sources);
  if (problems.length) throw new Error(`Messages are not consistent:\n${problems.join('\n')}`);
  const header = '// Compiled from messages/*.json by `npm run messages`; edit those, not this.';
  const keys = Object.keys(sources.en).sort();
  const groups = new Map<string, string[]>();
  for (const key of keys) {
    const prefix = key.split('_')[0]!;
    groups.set(prefix, [...(groups.get(prefix) ?? []), key]);
  }
  const files: Record<string, string> = {
    'messages.ts': [
      header,
      '// tests/unit/messages.test.ts fails while the compiled files are stale.',
      ...[...groups.keys()].map((prefix) => `export * from './messages/_${prefix}.ts';`),
      '',
    ].join('\n'),
  };
  for (const [prefix, members] of groups) {
    files[`messages/_${prefix}.ts`] = [
      header,
      ...members.map((key) => `export { ${key} } from './${key}.ts';`),
      '',
    ].join('\n');
  }
  for (const key of keys) {
    const params = paramsOf(sources.en[key]!);
    const signature = params.length
      ? `(locale: Locale, p: { ${params.map((name) => `${name}: string | number`).join('; ')} })`
      : '(locale: Locale)';
    files[`messages/${key}.ts`] = [
      header,
      "import type { Locale } from '../locales.ts';",
      '',
      `/** ${sources.en[key]!.replace(/\*\//g, '*\\/')} */`,
      `export const ${key} = ${signature}: string =>`,
      `  locale === 'zh-CN' ? ${expression(sources['zh-CN'][key]!)} : ${expression(sources.en[key]!)};`,
      '',
    ].join('\n');
  }
  return files;
}
