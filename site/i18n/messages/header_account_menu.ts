// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Account menu */
export const header_account_menu = (locale: Locale): string =>
  locale === 'zh-CN' ? '账户菜单' : 'Account menu';
