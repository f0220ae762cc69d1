// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Loading sign-in options… */
export const login_loading_options = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在加载登录方式…' : 'Loading sign-in options…';
