// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Quick start */
export const apiaccess_quick_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '快速上手' : 'Quick start';
