// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Copy */
export const apiaccess_copy = (locale: Locale): string => (locale === 'zh-CN' ? '复制' : 'Copy');
