// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your balance: {credits} */
export const pricing_balance = (locale: Locale, p: { credits: string | number }): string =>
  locale === 'zh-CN' ? '你的余额：' + String(p.credits) : 'Your balance: ' + String(p.credits);
