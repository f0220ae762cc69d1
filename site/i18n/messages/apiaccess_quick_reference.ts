// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** API reference */
export const apiaccess_quick_reference = (locale: Locale): string =>
  locale === 'zh-CN' ? 'API 参考文档' : 'API reference';
