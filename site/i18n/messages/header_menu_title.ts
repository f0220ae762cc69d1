// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Menu */
export const header_menu_title = (locale: Locale): string => (locale === 'zh-CN' ? '菜单' : 'Menu');
