// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Subscription plans */
export const pricing_plans_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '订阅套餐' : 'Subscription plans';
