// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** webhook-id */
export const apiaccess_delivery_id = (locale: Locale): string =>
  locale === 'zh-CN' ? 'webhook-id' : 'webhook-id';
