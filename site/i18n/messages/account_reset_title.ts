// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Choose a new password */
export const account_reset_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '设置新密码' : 'Choose a new password';
