// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Buy Credits */
export const generator_buy_credits = (locale: Locale): string =>
  locale === 'zh-CN' ? '购买积分' : 'Buy Credits';
