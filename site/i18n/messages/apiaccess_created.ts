// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Created */
export const apiaccess_created = (locale: Locale): string =>
  locale === 'zh-CN' ? '创建时间' : 'Created';
