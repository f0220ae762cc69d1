// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Delete */
export const apiaccess_hook_delete = (locale: Locale): string =>
  locale === 'zh-CN' ? '删除' : 'Delete';
