// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** credit packs */
export const pricing_promo_target_packs = (locale: Locale): string =>
  locale === 'zh-CN' ? '积分包' : 'credit packs';
