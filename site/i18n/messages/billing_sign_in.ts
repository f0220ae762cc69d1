// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in */
export const billing_sign_in = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录' : 'Sign in';
