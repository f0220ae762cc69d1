// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Next attempt {date} */
export const apiaccess_delivery_next = (locale: Locale, p: { date: string | number }): string =>
  locale === 'zh-CN' ? '下次尝试：' + String(p.date) : 'Next attempt ' + String(p.date);
