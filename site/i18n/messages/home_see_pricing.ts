// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** See pricing */
export const home_see_pricing = (locale: Locale): string =>
  locale === 'zh-CN' ? '查看价格' : 'See pricing';
