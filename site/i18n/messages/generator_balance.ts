// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Balance:  */
export const generator_balance = (locale: Locale): string =>
  locale === 'zh-CN' ? '余额：' : 'Balance: ';
