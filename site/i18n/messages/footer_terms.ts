// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Terms */
export const footer_terms = (locale: Locale): string => (locale === 'zh-CN' ? '服务条款' : 'Terms');
