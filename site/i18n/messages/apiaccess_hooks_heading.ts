// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Webhooks */
export const apiaccess_hooks_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? 'Webhook' : 'Webhooks';
