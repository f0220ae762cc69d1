// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Open menu */
export const header_open_menu = (locale: Locale): string =>
  locale === 'zh-CN' ? '打开菜单' : 'Open menu';
