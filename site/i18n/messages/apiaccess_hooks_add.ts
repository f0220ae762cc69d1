// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Add endpoint */
export const apiaccess_hooks_add = (locale: Locale): string =>
  locale === 'zh-CN' ? '添加端点' : 'Add endpoint';
