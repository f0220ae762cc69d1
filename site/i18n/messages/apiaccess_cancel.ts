// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Cancel */
export const apiaccess_cancel = (locale: Locale): string =>
  locale === 'zh-CN' ? '取消' : 'Cancel';
