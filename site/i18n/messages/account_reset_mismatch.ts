// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The two passwords are different. Type the same new password in both fields. */
export const account_reset_mismatch = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '两次输入的密码不一致。请在两个输入框中输入相同的新密码。'
    : 'The two passwords are different. Type the same new password in both fields.';
