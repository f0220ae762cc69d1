// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in to manage your account */
export const account_settings_sign_in_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录后管理你的账户' : 'Sign in to manage your account';
