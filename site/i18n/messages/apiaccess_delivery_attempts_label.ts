// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Attempts */
export const apiaccess_delivery_attempts_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '尝试记录' : 'Attempts';
