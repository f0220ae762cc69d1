// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in to see your payments */
export const billing_sign_in_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录以查看你的付款' : 'Sign in to see your payments';
