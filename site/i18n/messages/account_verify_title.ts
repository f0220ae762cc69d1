// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Confirm your email */
export const account_verify_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '确认邮箱' : 'Confirm your email';
