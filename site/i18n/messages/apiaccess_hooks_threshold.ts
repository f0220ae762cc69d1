// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Low-balance threshold (credits) */
export const apiaccess_hooks_threshold = (locale: Locale): string =>
  locale === 'zh-CN' ? '余额提醒阈值（积分）' : 'Low-balance threshold (credits)';
