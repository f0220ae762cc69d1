// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** History pages */
export const history_pager_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '历史记录分页' : 'History pages';
