// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Type your password to confirm. This cannot be undone. */
export const account_settings_dialog_password = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请输入密码确认。此操作无法撤销。'
    : 'Type your password to confirm. This cannot be undone.';
