// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {message} {link}. */
export const account_reset_done = (
  locale: Locale,
  p: { link: string | number; message: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.message) + String(p.link) + '。'
    : String(p.message) + ' ' + String(p.link) + '.';
