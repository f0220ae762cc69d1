// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The link from the mail works once. Setting a new password signs you out everywhere. */
export const account_reset_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '邮件中的链接只能使用一次。设置新密码后，你会在所有设备上退出登录。'
    : 'The link from the mail works once. Setting a new password signs you out everywhere.';
