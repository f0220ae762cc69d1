// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Current Plan */
export const pricing_current_plan = (locale: Locale): string =>
  locale === 'zh-CN' ? '当前套餐' : 'Current Plan';
