// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Not attempted yet. */
export const apiaccess_delivery_no_attempts = (locale: Locale): string =>
  locale === 'zh-CN' ? '尚未尝试。' : 'Not attempted yet.';
