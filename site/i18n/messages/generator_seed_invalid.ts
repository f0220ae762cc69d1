// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The seed must be a whole number from 0 to {max}. */
export const generator_seed_invalid = (locale: Locale, p: { max: string | number }): string =>
  locale === 'zh-CN'
    ? '种子必须是 0 到 ' + String(p.max) + ' 之间的整数。'
    : 'The seed must be a whole number from 0 to ' + String(p.max) + '.';
