// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Please login before purchasing */
export const pricing_login_required = (locale: Locale): string =>
  locale === 'zh-CN' ? '请先登录再购买' : 'Please login before purchasing';
