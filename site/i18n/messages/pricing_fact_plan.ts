// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Plan */
export const pricing_fact_plan = (locale: Locale): string => (locale === 'zh-CN' ? '套餐' : 'Plan');
