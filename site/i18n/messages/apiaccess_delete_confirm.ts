// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Delete endpoint */
export const apiaccess_delete_confirm = (locale: Locale): string =>
  locale === 'zh-CN' ? '删除端点' : 'Delete endpoint';
