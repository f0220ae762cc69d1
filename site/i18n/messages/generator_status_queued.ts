// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Waiting in the queue… */
export const generator_status_queued = (locale: Locale): string =>
  locale === 'zh-CN' ? '排队等待中…' : 'Waiting in the queue…';
