// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** You have {max} active keys, the most an account can hold. Revoke one to create another. */
export const apiaccess_keys_limit = (locale: Locale, p: { max: string | number }): string =>
  locale === 'zh-CN'
    ? '你已有 ' + String(p.max) + ' 个有效密钥，已达账户上限。请先吊销一个，再创建新的。'
    : 'You have ' +
      String(p.max) +
      ' active keys, the most an account can hold. Revoke one to create another.';
