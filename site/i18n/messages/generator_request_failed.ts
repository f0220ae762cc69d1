// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Request failed: {reason} */
export const generator_request_failed = (locale: Locale, p: { reason: string | number }): string =>
  locale === 'zh-CN' ? '请求失败：' + String(p.reason) : 'Request failed: ' + String(p.reason);
