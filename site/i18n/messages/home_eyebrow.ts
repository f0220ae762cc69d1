// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {brand} · powered by {product} */
export const home_eyebrow = (
  locale: Locale,
  p: { brand: string | number; product: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.brand) + ' · 由 ' + String(p.product) + ' 驱动'
    : String(p.brand) + ' · powered by ' + String(p.product);
