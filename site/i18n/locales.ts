/**
 * The site's languages (issue 21): English at today's paths, Simplified Chinese under /zh/.
 *
 * Which pages exist in which language is the page table's (shared/pages.ts): only the pages it
 * gives both languages get hreflang alternates, a sitemap entry per language and the language
 * switch; a link from a Chinese page to a page without a Chinese version goes to the English one.
 */
import type { Locale } from '../../shared/locales.ts';

export { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '../../shared/locales.ts';
export {
  alternatesOf,
  basePath,
  localeOfPath,
  localizePath,
  type Alternate,
} from '../../shared/pages.ts';

/** Each language's name in itself (the switch shows the language it leads to). */
export const AUTONYMS: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

/** `og:locale` values. */
export const OG_LOCALES: Record<Locale, string> = { en: 'en_US', 'zh-CN': 'zh_CN' };

/** The locale `Intl` formats with (dates, numbers, money). */
export const INTL_LOCALES: Record<Locale, string> = { en: 'en-US', 'zh-CN': 'zh-CN' };

/** Where a visitor's choice of language is kept (the switch and the first-visit hint). */
export const LOCALE_CHOICE_KEY = 'locale';

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
