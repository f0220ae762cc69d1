// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Payment details */
export const pricing_notes_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '付款说明' : 'Payment details';
