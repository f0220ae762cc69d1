// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your time zone ({zone}) */
export const blog_date_zone_title = (locale: Locale, p: { zone: string | number }): string =>
  locale === 'zh-CN'
    ? '你的时区（' + String(p.zone) + '）'
    : 'Your time zone (' + String(p.zone) + ')';
