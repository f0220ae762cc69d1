// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Revoke */
export const apiaccess_key_revoke = (locale: Locale): string =>
  locale === 'zh-CN' ? '吊销' : 'Revoke';
