// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in to download your data or to close your account. */
export const account_settings_sign_in_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '登录后即可下载你的数据或注销账户。'
    : 'Sign in to download your data or to close your account.';
