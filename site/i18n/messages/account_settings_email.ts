// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Email */
export const account_settings_email = (locale: Locale): string =>
  locale === 'zh-CN' ? '邮箱' : 'Email';
