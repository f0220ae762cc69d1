// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Permissions */
export const apiaccess_keys_scopes = (locale: Locale): string =>
  locale === 'zh-CN' ? '权限' : 'Permissions';
