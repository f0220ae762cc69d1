// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Pick at least one event. */
export const apiaccess_hooks_events_missing = (locale: Locale): string =>
  locale === 'zh-CN' ? '请至少选择一个事件。' : 'Pick at least one event.';
