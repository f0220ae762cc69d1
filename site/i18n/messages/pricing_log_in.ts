// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Log in */
export const pricing_log_in = (locale: Locale): string => (locale === 'zh-CN' ? '登录' : 'Log in');
