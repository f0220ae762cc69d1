// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Close menu */
export const header_close_menu = (locale: Locale): string =>
  locale === 'zh-CN' ? '关闭菜单' : 'Close menu';
