// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** HTTP error: {status} */
export const generator_http_error = (locale: Locale, p: { status: string | number }): string =>
  locale === 'zh-CN' ? '服务器错误：' + String(p.status) : 'HTTP error: ' + String(p.status);
