// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Cost */
export const generator_cost = (locale: Locale): string => (locale === 'zh-CN' ? '消耗' : 'Cost');
