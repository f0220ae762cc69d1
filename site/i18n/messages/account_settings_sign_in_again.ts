// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in again */
export const account_settings_sign_in_again = (locale: Locale): string =>
  locale === 'zh-CN' ? '重新登录' : 'Sign in again';
