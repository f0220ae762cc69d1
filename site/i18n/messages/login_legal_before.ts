// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** By signing in you agree to our  */
export const login_legal_before = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录即表示你同意我们的《' : 'By signing in you agree to our ';
