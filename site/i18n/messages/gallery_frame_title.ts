// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {title} by {creator} */
export const gallery_frame_title = (
  locale: Locale,
  p: { creator: string | number; title: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.title) + '（来自 ' + String(p.creator) + '）'
    : String(p.title) + ' by ' + String(p.creator);
