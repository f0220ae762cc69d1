// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Confirm your email | {brand} */
export const account_verify_page_title = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN' ? '确认邮箱 | ' + String(p.brand) : 'Confirm your email | ' + String(p.brand);
