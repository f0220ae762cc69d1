// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** All */
export const effects_category_all = (locale: Locale): string =>
  locale === 'zh-CN' ? '全部' : 'All';
