// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** What you get */
export const home_facts_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '你将获得' : 'What you get';
