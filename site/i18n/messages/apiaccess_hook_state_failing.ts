// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Failing */
export const apiaccess_hook_state_failing = (locale: Locale): string =>
  locale === 'zh-CN' ? '投递失败' : 'Failing';
