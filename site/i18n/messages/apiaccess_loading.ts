// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Loading… */
export const apiaccess_loading = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在加载…' : 'Loading…';
