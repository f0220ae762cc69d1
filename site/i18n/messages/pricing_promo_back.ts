// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Back to pricing */
export const pricing_promo_back = (locale: Locale): string =>
  locale === 'zh-CN' ? '返回价格页' : 'Back to pricing';
