// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Revoked on */
export const apiaccess_key_revoked_at = (locale: Locale): string =>
  locale === 'zh-CN' ? '吊销时间' : 'Revoked on';
