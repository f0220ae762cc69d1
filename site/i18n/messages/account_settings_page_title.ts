// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Account settings | {brand} */
export const account_settings_page_title = (
  locale: Locale,
  p: { brand: string | number },
): string =>
  locale === 'zh-CN' ? '账户设置 | ' + String(p.brand) : 'Account settings | ' + String(p.brand);
