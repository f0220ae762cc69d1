// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in | {brand} */
export const login_page_title = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN' ? '登录 | ' + String(p.brand) : 'Sign in | ' + String(p.brand);
