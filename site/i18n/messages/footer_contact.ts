// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Contact */
export const footer_contact = (locale: Locale): string =>
  locale === 'zh-CN' ? '联系我们' : 'Contact';
