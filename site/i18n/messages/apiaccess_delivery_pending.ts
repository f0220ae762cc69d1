// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Pending */
export const apiaccess_delivery_pending = (locale: Locale): string =>
  locale === 'zh-CN' ? '等待中' : 'Pending';
