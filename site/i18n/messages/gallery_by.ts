// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** by {creator} */
export const gallery_by = (locale: Locale, p: { creator: string | number }): string =>
  locale === 'zh-CN' ? '来自 ' + String(p.creator) : 'by ' + String(p.creator);
