// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Seed */
export const generator_seed = (locale: Locale): string => (locale === 'zh-CN' ? '种子' : 'Seed');
