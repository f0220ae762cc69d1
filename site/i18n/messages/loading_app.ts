// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** 正在加载应用... */
export const loading_app = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在加载应用...' : '正在加载应用...';
