// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Log in */
export const generator_log_in = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录' : 'Log in';
