// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** © {year} {brand}. All rights reserved. */
export const footer_rights = (
  locale: Locale,
  p: { brand: string | number; year: string | number },
): string =>
  locale === 'zh-CN'
    ? '© ' + String(p.year) + ' ' + String(p.brand) + '。保留所有权利。'
    : '© ' + String(p.year) + ' ' + String(p.brand) + '. All rights reserved.';
