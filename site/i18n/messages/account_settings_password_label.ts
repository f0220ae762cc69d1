// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your password */
export const account_settings_password_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '你的密码' : 'Your password';
