/**
 * The site's languages (issue 21): English at today's paths, Simplified Chinese under /zh/.
 *
 * Pages gain their Chinese version one at a time: LOCALIZED_PATHS lists the English paths that
 * have one. Only those get hreflang alternates, a sitemap entry per language and the language
 * switch; a link from a Chinese page to a page without a Chinese version goes to the English one.
 */
import { GENERATOR_PATH } from '../lib/site.ts';

import { DEFAULT_LOCALE, LOCALES, PATH_PREFIXES, type Locale } from '../../shared/locales.ts';

export { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '../../shared/locales.ts';

/** URL prefix of each language. */
const PREFIX = PATH_PREFIXES;

/** Each language's name in itself (the switch shows the language it leads to). */
export const AUTONYMS: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

/** `og:locale` values. */
export const OG_LOCALES: Record<Locale, string> = { en: 'en_US', 'zh-CN': 'zh_CN' };

/** The locale `Intl` formats with (dates, numbers, money). */
export const INTL_LOCALES: Record<Locale, string> = { en: 'en-US', 'zh-CN': 'zh-CN' };

/** English paths whose page exists in every language. */
export const LOCALIZED_PATHS: ReadonlySet<string> = new Set([
  '/',
  '/login',
  '/terms-of-service',
  '/privacy-policy',
  '/refund-policy',
  GENERATOR_PATH,
  '/pricing',
  '/video-effects',
  '/ai-french-kissing',
  '/asmr-video',
  // The blog's list (each language lists its own posts). Its later pages and the articles are
  // not the same page in the other language: they name their versions themselves (BaseLayout's
  // `alternates`), and their switch leads to the other language's list.
  '/blog',
  // Private and utility pages (noindex): history and the mailed links' pages.
  '/video-history',
  '/verify-email',
  '/reset-password',
]);

/** Where a visitor's choice of language is kept (the switch and the first-visit hint). */
export const LOCALE_CHOICE_KEY = 'locale';

/** The language a site path is in: `/zh` and `/zh/…` are Chinese, everything else English. */
export function localeOfPath(path: string): Locale {
  return path === '/zh' || path.startsWith('/zh/') ? 'zh-CN' : 'en';
}

/** The English path of a page in any language: `/zh/login` → `/login`, `/zh` → `/`. */
export function basePath(path: string): string {
  const prefix = PREFIX[localeOfPath(path)];
  return path.slice(prefix.length) || '/';
}

/** True when the page at this path (in any language) exists in every language. */
export function isLocalized(path: string): boolean {
  return LOCALIZED_PATHS.has(basePath(path));
}

/**
 * The path of a page in a language: its own version where it has one, else the English page.
 * Keeps a query or hash: `/login?next=1` → `/zh/login?next=1`.
 */
export function localizePath(path: string, locale: Locale): string {
  const cut = path.search(/[?#]/);
  const pathname = cut === -1 ? path : path.slice(0, cut);
  const rest = cut === -1 ? '' : path.slice(cut);
  const base = basePath(pathname);
  if (!LOCALIZED_PATHS.has(base) || locale === DEFAULT_LOCALE) return base + rest;
  return (base === '/' ? PREFIX[locale] : PREFIX[locale] + base) + rest;
}

/** One language's version of a page (an hreflang alternate). */
export interface Alternate {
  locale: Locale;
  path: string;
}

/** Every language's version of a page, or an empty list when it exists in English only. */
export function alternatesOf(path: string): Alternate[] {
  if (!isLocalized(path)) return [];
  return LOCALES.map((locale) => ({ locale, path: localizePath(path, locale) }));
}

/** The other language (two languages: the one the switch offers). */
export function otherLocale(locale: Locale): Locale {
  return locale === 'en' ? 'zh-CN' : 'en';
}

/** Browser languages the Chinese site serves: any Chinese. */
export const CHINESE_BROWSER_LANGUAGE = /^zh\b/i;

/** The site language a browser language asks for: any Chinese → zh-CN, anything else → en. */
export function siteLocaleFor(browserLanguage: string): Locale {
  return CHINESE_BROWSER_LANGUAGE.test(browserLanguage) ? 'zh-CN' : 'en';
}
