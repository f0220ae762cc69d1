// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Newest */
export const history_pager_newest = (locale: Locale): string =>
  locale === 'zh-CN' ? '最新' : 'Newest';
