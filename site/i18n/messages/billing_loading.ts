// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Loading… */
export const billing_loading = (locale: Locale): string =>
  locale === 'zh-CN' ? '加载中…' : 'Loading…';
