// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Pick at least one permission. */
export const apiaccess_keys_scopes_missing = (locale: Locale): string =>
  locale === 'zh-CN' ? '请至少选择一项权限。' : 'Pick at least one permission.';
