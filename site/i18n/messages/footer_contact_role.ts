// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {role}: */
export const footer_contact_role = (locale: Locale, p: { role: string | number }): string =>
  locale === 'zh-CN' ? String(p.role) + '：' : String(p.role) + ':';
