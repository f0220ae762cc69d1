// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Endpoint URL */
export const apiaccess_hooks_url = (locale: Locale): string =>
  locale === 'zh-CN' ? '端点地址' : 'Endpoint URL';
