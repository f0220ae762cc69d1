// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Pricing */
export const pricing_title = (locale: Locale): string => (locale === 'zh-CN' ? '价格' : 'Pricing');
