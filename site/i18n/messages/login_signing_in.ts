// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Signing in... */
export const login_signing_in = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在登录...' : 'Signing in...';
