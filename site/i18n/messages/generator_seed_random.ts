// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Random */
export const generator_seed_random = (locale: Locale): string =>
  locale === 'zh-CN' ? '随机' : 'Random';
