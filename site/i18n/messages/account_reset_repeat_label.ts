// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Repeat the new password */
export const account_reset_repeat_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '再次输入新密码' : 'Repeat the new password';
