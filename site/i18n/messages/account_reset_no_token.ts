// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** This address has no reset code. Open the link from the mail again, or ask for a new reset link. */
export const account_reset_no_token = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '此链接缺少重置码。请重新打开邮件中的链接，或重新申请密码重置链接。'
    : 'This address has no reset code. Open the link from the mail again, or ask for a new reset link.';
