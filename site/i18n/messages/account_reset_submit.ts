// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Set new password */
export const account_reset_submit = (locale: Locale): string =>
  locale === 'zh-CN' ? '设置新密码' : 'Set new password';
