// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Support */
export const mailbox_support = (locale: Locale): string =>
  locale === 'zh-CN' ? '客服' : 'Support';
