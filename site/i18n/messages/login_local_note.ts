// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/**  No password: enter any name and email to create or reuse a local account. */
export const login_local_note = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无需密码：输入任意姓名和邮箱即可创建或使用本地账户。'
    : ' No password: enter any name and email to create or reuse a local account.';
