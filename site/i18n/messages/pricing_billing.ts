// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Billing */
export const pricing_billing = (locale: Locale): string =>
  locale === 'zh-CN' ? '计费周期' : 'Billing';
