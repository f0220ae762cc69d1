/**
 * The product's languages (issue 21), for the site and the server alike: English (the default)
 * and Simplified Chinese. The site's paths per language are in site/i18n/locales.ts.
 */

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The URL prefix of each language's pages: English at the root, Chinese under /zh. */
export const PATH_PREFIXES: Readonly<Record<Locale, string>> = { en: '', 'zh-CN': '/zh' };

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

/** The product language for one language tag: any Chinese → zh-CN, any English → en, else null. */
function localeForTag(tag: string): Locale | null {
  if (/^zh\b/i.test(tag)) return 'zh-CN';
  if (/^en\b/i.test(tag)) return 'en';
  return null;
}

/**
 * The language an `Accept-Language` header asks for: the first of its languages, by quality, that
 * the product has; English when it names none of them (or is absent).
 */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = localeForTag(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
