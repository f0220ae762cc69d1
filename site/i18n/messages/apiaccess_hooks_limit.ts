// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** You have {max} endpoints, the most an account can hold. Delete one to add another. */
export const apiaccess_hooks_limit = (locale: Locale, p: { max: string | number }): string =>
  locale === 'zh-CN'
    ? '你已有 ' + String(p.max) + ' 个端点，已达账户上限。请先删除一个，再添加新的。'
    : 'You have ' +
      String(p.max) +
      ' endpoints, the most an account can hold. Delete one to add another.';
