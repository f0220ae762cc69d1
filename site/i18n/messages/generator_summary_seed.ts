// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Seed {seed} */
export const generator_summary_seed = (locale: Locale, p: { seed: string | number }): string =>
  locale === 'zh-CN' ? '种子 ' + String(p.seed) : 'Seed ' + String(p.seed);
