// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Filter effects by category */
export const effects_filter_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '按类别筛选特效' : 'Filter effects by category';
