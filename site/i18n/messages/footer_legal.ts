// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Legal */
export const footer_legal = (locale: Locale): string => (locale === 'zh-CN' ? '法律条款' : 'Legal');
