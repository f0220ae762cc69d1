// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Close your account for good? */
export const account_settings_dialog_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '确定永久注销你的账户？' : 'Close your account for good?';
