// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {name} plan */
export const pricing_item_plan = (locale: Locale, p: { name: string | number }): string =>
  locale === 'zh-CN' ? String(p.name) + ' 套餐' : String(p.name) + ' plan';
