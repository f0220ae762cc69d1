// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Delivered */
export const apiaccess_delivery_delivered = (locale: Locale): string =>
  locale === 'zh-CN' ? '已送达' : 'Delivered';
