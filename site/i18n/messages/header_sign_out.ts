// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign out */
export const header_sign_out = (locale: Locale): string =>
  locale === 'zh-CN' ? '退出登录' : 'Sign out';
