// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** New password */
export const account_reset_password_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '新密码' : 'New password';
