// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Reference images (up to {max}) */
export const generator_reference_images = (locale: Locale, p: { max: string | number }): string =>
  locale === 'zh-CN'
    ? '参考图（最多 ' + String(p.max) + ' 张）'
    : 'Reference images (up to ' + String(p.max) + ')';
