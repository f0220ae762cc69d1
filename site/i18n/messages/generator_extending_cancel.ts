// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Don't extend */
export const generator_extending_cancel = (locale: Locale): string =>
  locale === 'zh-CN' ? '不延长' : "Don't extend";
