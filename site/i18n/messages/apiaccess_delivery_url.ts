// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sent to */
export const apiaccess_delivery_url = (locale: Locale): string =>
  locale === 'zh-CN' ? '发送至' : 'Sent to';
