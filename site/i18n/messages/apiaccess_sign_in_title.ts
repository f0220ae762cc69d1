// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in to use the API */
export const apiaccess_sign_in_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录后使用 API' : 'Sign in to use the API';
