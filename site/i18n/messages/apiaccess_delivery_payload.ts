// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Payload */
export const apiaccess_delivery_payload = (locale: Locale): string =>
  locale === 'zh-CN' ? '负载' : 'Payload';
