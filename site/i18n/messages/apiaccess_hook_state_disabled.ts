// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Disabled */
export const apiaccess_hook_state_disabled = (locale: Locale): string =>
  locale === 'zh-CN' ? '已停用' : 'Disabled';
