// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Revoked */
export const apiaccess_key_revoked = (locale: Locale): string =>
  locale === 'zh-CN' ? '已吊销' : 'Revoked';
