// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** New webhook endpoint */
export const apiaccess_hooks_form_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '新建 Webhook 端点' : 'New webhook endpoint';
