// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Switch Plan (Cancel First) */
export const pricing_switch_plan = (locale: Locale): string =>
  locale === 'zh-CN' ? '切换套餐（请先取消）' : 'Switch Plan (Cancel First)';
