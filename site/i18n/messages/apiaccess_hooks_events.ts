// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Events */
export const apiaccess_hooks_events = (locale: Locale): string =>
  locale === 'zh-CN' ? '事件' : 'Events';
