// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Yearly */
export const pricing_yearly = (locale: Locale): string => (locale === 'zh-CN' ? '按年' : 'Yearly');
