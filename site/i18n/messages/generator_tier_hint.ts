// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Fast costs fewer credits and finishes sooner, with a little less detail. */
export const generator_tier_hint = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '快速模式花费更少积分、完成更快，细节略少。'
    : 'Fast costs fewer credits and finishes sooner, with a little less detail.';
