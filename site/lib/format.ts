/** How the site writes prices and credit counts (pricing page, payment dialog, header). */
import { INTL_LOCALES, type Locale } from '../i18n/locales.ts';
import { credits_one, credits_other } from '../i18n/messages.ts';

/** A price in dollars, always with cents (issue 20): 29.9 → "$29.90", 286 → "$286.00". */
export const formatPrice = (dollars: number): string =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** 1340 → "1,340 credits" ("1,340 积分" in Chinese), the number through `Intl` for the language. */
export function formatCredits(credits: number, locale: Locale = 'en'): string {
  const count = formatNumber(credits, locale);
  return credits === 1 ? credits_one(locale, { count }) : credits_other(locale, { count });
}

/** A whole number the way the page's language writes it. */
export const formatNumber = (value: number, locale: Locale = 'en'): string =>
  value.toLocaleString(INTL_LOCALES[locale]);
