// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Threshold */
export const apiaccess_hook_threshold = (locale: Locale): string =>
  locale === 'zh-CN' ? '阈值' : 'Threshold';
