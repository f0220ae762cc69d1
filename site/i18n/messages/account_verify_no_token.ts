// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** This address has no confirmation code. Open the link from the mail again, or sign up again with the same email to get a new link. */
export const account_verify_no_token = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '此链接缺少确认码。请重新打开邮件中的链接，或用同一邮箱重新注册以获取新链接。'
    : 'This address has no confirmation code. Open the link from the mail again, or sign up again with the same email to get a new link.';
