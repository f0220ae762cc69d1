// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Confirming your payment… */
export const pricing_payment_confirming = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在确认你的付款…' : 'Confirming your payment…';
