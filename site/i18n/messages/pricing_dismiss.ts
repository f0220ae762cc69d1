// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Dismiss message */
export const pricing_dismiss = (locale: Locale): string =>
  locale === 'zh-CN' ? '关闭消息' : 'Dismiss message';
