// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign-in */
export const account_settings_method = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录方式' : 'Sign-in';
