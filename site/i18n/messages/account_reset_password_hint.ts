// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** At least {min} characters. */
export const account_reset_password_hint = (locale: Locale, p: { min: string | number }): string =>
  locale === 'zh-CN'
    ? '至少 ' + String(p.min) + ' 个字符。'
    : 'At least ' + String(p.min) + ' characters.';
