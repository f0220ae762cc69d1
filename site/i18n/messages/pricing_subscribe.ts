// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Subscribe */
export const pricing_subscribe = (locale: Locale): string =>
  locale === 'zh-CN' ? '订阅' : 'Subscribe';
