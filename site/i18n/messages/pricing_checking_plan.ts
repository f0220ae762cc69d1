// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Checking your plan… */
export const pricing_checking_plan = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在查询你的套餐…' : 'Checking your plan…';
