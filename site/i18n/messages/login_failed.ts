// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Login failed, please try again */
export const login_failed = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录失败，请重试' : 'Login failed, please try again';
