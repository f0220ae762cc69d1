// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The previous secret also signs until {date}. */
export const apiaccess_previous_secret = (locale: Locale, p: { date: string | number }): string =>
  locale === 'zh-CN'
    ? '旧密钥在 ' + String(p.date) + ' 之前仍会同时签名。'
    : 'The previous secret also signs until ' + String(p.date) + '.';
