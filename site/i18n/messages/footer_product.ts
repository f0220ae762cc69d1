// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Product */
export const footer_product = (locale: Locale): string => (locale === 'zh-CN' ? '产品' : 'Product');
