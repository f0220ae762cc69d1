// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** you are signed out everywhere, and nobody can sign in to this account again. */
export const account_settings_close_sessions = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你会在所有设备上退出登录，之后任何人都无法再登录此账户。'
    : 'you are signed out everywhere, and nobody can sign in to this account again.';
