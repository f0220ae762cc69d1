// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Please login first */
export const history_sign_in_required = (locale: Locale): string =>
  locale === 'zh-CN' ? '请先登录' : 'Please login first';
