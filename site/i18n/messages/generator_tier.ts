// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Speed */
export const generator_tier = (locale: Locale): string => (locale === 'zh-CN' ? '速度' : 'Speed');
