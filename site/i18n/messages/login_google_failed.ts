// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Google login failed, please try again */
export const login_google_failed = (locale: Locale): string =>
  locale === 'zh-CN' ? 'Google 登录失败，请重试' : 'Google login failed, please try again';
