// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Email and password */
export const account_settings_method_email = (locale: Locale): string =>
  locale === 'zh-CN' ? '邮箱和密码' : 'Email and password';
