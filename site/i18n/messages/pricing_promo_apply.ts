// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Apply */
export const pricing_promo_apply = (locale: Locale): string =>
  locale === 'zh-CN' ? '使用' : 'Apply';
