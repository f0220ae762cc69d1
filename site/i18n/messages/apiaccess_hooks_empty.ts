// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** You have no webhook endpoints yet. */
export const apiaccess_hooks_empty = (locale: Locale): string =>
  locale === 'zh-CN' ? '你还没有 Webhook 端点。' : 'You have no webhook endpoints yet.';
