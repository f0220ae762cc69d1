/**
 * `npm run messages`: compiles messages/en.json and messages/zh-CN.json into site/i18n/messages.ts
 * and site/i18n/messages/{key}.ts (see site/i18n/compile-messages.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { compileMessages, type MessageSources } from '../site/i18n/compile-messages.ts';
import { LOCALES } from '../site/i18n/locales.ts';

/** The folder the compiled messages go to (site/i18n/messages.ts and site/i18n/messages/). */
export const I18N_DIR = fileURLToPath(new URL('../site/i18n/', import.meta.url));
const MESSAGE_MODULES_DIR = path.join(I18N_DIR, 'messages');

const MESSAGES_DIR = fileURLToPath(new URL('../messages/', import.meta.url));

/**
 * Folders of messages/ that are not the site's: the server's API sentences (messages/api, read by
 * server/core/api-messages.ts), which no island may bundle.
 */
const NOT_SITE_AREAS = new Set(['api']);

/**
 * The message files of each language: messages/{locale}.json (the site's frame: header, footer,
 * sign-in) and messages/{area}/{locale}.json (one folder per part of the site). A key may live in
 * one file only.
 */
export function readMessageSources(): MessageSources {
  const areas = readdirSync(MESSAGES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !NOT_SITE_AREAS.has(entry.name))
    .map((entry) => entry.name)
    .sort();
  const sources = {} as MessageSources;
  for (const locale of LOCALES) {
    const merged: Record<string, string> = {};
    for (const file of [`${locale}.json`, ...areas.map((area) => `${area}/${locale}.json`)]) {
      const full = path.join(MESSAGES_DIR, file);
      if (!existsSync(full)) continue;
      const messages = JSON.parse(readFileSync(full, 'utf8')) as Record<string, string>;
      for (const [key, text] of Object.entries(messages)) {
        if (key in merged) throw new Error(`messages/${file}: "${key}" is defined twice`);
        merged[key] = text;
      }
    }
    sources[locale] = merged;
  }
  return sources;
}

/** The compiled files as they are committed (formatted like the rest of the code), by path. */
export async function compiledMessageFiles(): Promise<Record<string, string>> {
  const files = compileMessages(readMessageSources());
  const options = await resolveConfig(path.join(I18N_DIR, 'messages.ts'));
  const formatted = await Promise.all(
    Object.entries(files).map(async ([file, text]) => {
      const filepath = path.join(I18N_DIR, file);
      return [file, await format(text, { ...options, filepath })] as const;
    }),
  );
  return Object.fromEntries(formatted);
}

/** The compiled files on disk now, by path (site/i18n/messages.ts and site/i18n/messages/*). */
export function committedMessageFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const barrel = path.join(I18N_DIR, 'messages.ts');
  if (existsSync(barrel)) files['messages.ts'] = readFileSync(barrel, 'utf8');
  if (existsSync(MESSAGE_MODULES_DIR)) {
    for (const name of readdirSync(MESSAGE_MODULES_DIR)) {
      files[`messages/${name}`] = readFileSync(path.join(MESSAGE_MODULES_DIR, name), 'utf8');
    }
  }
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const files = await compiledMessageFiles();
  rmSync(MESSAGE_MODULES_DIR, { recursive: true, force: true });
  mkdirSync(MESSAGE_MODULES_DIR, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(I18N_DIR, file), text);
  const messages = Object.keys(files).filter((file) => /^messages\/[a-z]/.test(file)).length;
  console.log(`site/i18n: ${messages} messages compiled`);
}
