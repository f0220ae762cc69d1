// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Keep subscription */
export const pricing_keep_subscription = (locale: Locale): string =>
  locale === 'zh-CN' ? '保留订阅' : 'Keep subscription';
