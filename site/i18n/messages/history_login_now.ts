// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Login Now */
export const history_login_now = (locale: Locale): string =>
  locale === 'zh-CN' ? '立即登录' : 'Login Now';
