// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Refund Policy */
export const pricing_refund_policy = (locale: Locale): string =>
  locale === 'zh-CN' ? '退款政策' : 'Refund Policy';
