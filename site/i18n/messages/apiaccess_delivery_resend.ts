// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Resend */
export const apiaccess_delivery_resend = (locale: Locale): string =>
  locale === 'zh-CN' ? '重新发送' : 'Resend';
