// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Opening… */
export const billing_manage_opening = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在打开…' : 'Opening…';
