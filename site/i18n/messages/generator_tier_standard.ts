// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Standard */
export const generator_tier_standard = (locale: Locale): string =>
  locale === 'zh-CN' ? '标准' : 'Standard';
