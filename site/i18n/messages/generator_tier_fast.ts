// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Fast */
export const generator_tier_fast = (locale: Locale): string =>
  locale === 'zh-CN' ? '快速' : 'Fast';
