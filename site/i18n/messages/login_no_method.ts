// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** No sign-in method is configured on this server. */
export const login_no_method = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '此服务器尚未配置任何登录方式。'
    : 'No sign-in method is configured on this server.';
