// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Type your password first. */
export const account_settings_password_missing = (locale: Locale): string =>
  locale === 'zh-CN' ? '请先输入密码。' : 'Type your password first.';
