// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** or */
export const login_or = (locale: Locale): string => (locale === 'zh-CN' ? '或' : 'or');
