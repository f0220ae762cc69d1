// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Confirm my email */
export const account_verify_submit = (locale: Locale): string =>
  locale === 'zh-CN' ? '确认我的邮箱' : 'Confirm my email';
