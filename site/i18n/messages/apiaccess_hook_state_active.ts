// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Active */
export const apiaccess_hook_state_active = (locale: Locale): string =>
  locale === 'zh-CN' ? '正常' : 'Active';
