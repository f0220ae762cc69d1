// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Confirm the email address of your {brand} account to finish signing up. */
export const account_verify_page_description = (
  locale: Locale,
  p: { brand: string | number },
): string =>
  locale === 'zh-CN'
    ? '确认你的 ' + String(p.brand) + ' 账号邮箱，完成注册。'
    : 'Confirm the email address of your ' + String(p.brand) + ' account to finish signing up.';
