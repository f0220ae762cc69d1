// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Frequently asked questions */
export const faq_title_default = (locale: Locale): string =>
  locale === 'zh-CN' ? '常见问题' : 'Frequently asked questions';
