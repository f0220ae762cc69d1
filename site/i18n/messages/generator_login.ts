// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Login */
export const generator_login = (locale: Locale): string => (locale === 'zh-CN' ? '登录' : 'Login');
