// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Go to sign-in */
export const account_reset_go_to_sign_in = (locale: Locale): string =>
  locale === 'zh-CN' ? '前往登录' : 'Go to sign-in';
