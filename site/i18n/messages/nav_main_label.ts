// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Main */
export const nav_main_label = (locale: Locale): string => (locale === 'zh-CN' ? '主导航' : 'Main');
