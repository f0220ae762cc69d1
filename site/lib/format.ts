/** How the site writes prices, credit counts and numbers (pricing page, payment dialog, header). */
import { INTL_LOCALES, type Locale } from '../i18n/locales.ts';
import { credits_one, credits_other } from '../i18n/messages.ts';

/**
 * A price in US dollars (every price is charged in USD), always with cents (issue 20), the way
 * the page's language writes dollars: 29.9 → "$29.90", 286 → "$286.00"; "US$29.90" in Chinese.
 */
export const formatPrice = (dollars: number, locale: Locale = 'en'): string =>
  dollars.toLocaleString(INTL_LOCALES[locale], {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });

/** 1340 → "1,340 credits" ("1,340 积分" in Chinese), the number through `Intl` for the language. */
export function formatCredits(credits: number, locale: Locale = 'en'): string {
  const count = formatNumber(credits, locale);
  return credits === 1 ? credits_one(locale, { count }) : credits_other(locale, { count });
}

/** A whole number the way the page's language writes it. */
export const formatNumber = (value: number, locale: Locale = 'en'): string =>
  value.toLocaleString(INTL_LOCALES[locale]);

/** Stands for the set-apart part of a message while it is cut (see textAround). */
const SLOT = '\u0000';

/**
 * The text before and after the one part of a message a page sets apart (bold, a link), so the
 * part sits where each language puts it: `textAround((slot) => m.pricing_balance(locale,
 * { credits: slot }))` → ["Your balance: ", ""], ["你的余额：", ""] in Chinese.
 */
export function textAround(message: (slot: string) => string): [before: string, after: string] {
  const [before = '', after = ''] = message(SLOT).split(SLOT);
  return [before, after];
}
