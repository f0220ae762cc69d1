// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Cancel subscription */
export const pricing_cancel_subscription = (locale: Locale): string =>
  locale === 'zh-CN' ? '取消订阅' : 'Cancel subscription';
