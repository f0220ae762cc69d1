// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Attempts and payload */
export const apiaccess_delivery_details = (locale: Locale): string =>
  locale === 'zh-CN' ? '尝试记录与负载' : 'Attempts and payload';
