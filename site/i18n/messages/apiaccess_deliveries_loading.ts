// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Loading deliveries… */
export const apiaccess_deliveries_loading = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在加载投递记录…' : 'Loading deliveries…';
