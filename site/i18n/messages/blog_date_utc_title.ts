// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Coordinated Universal Time (UTC) */
export const blog_date_utc_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '协调世界时（UTC）' : 'Coordinated Universal Time (UTC)';
