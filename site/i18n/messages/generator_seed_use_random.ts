// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Use a random seed */
export const generator_seed_use_random = (locale: Locale): string =>
  locale === 'zh-CN' ? '改用随机种子' : 'Use a random seed';
