// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {title} | {brand} */
export const effects_meta_title = (
  locale: Locale,
  p: { brand: string | number; title: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.title) + ' | ' + String(p.brand)
    : String(p.title) + ' | ' + String(p.brand);
