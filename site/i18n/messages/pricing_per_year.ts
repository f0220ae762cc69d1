// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** /year */
export const pricing_per_year = (locale: Locale): string => (locale === 'zh-CN' ? '/年' : '/year');
