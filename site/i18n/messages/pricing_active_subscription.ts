// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Active subscription */
export const pricing_active_subscription = (locale: Locale): string =>
  locale === 'zh-CN' ? '当前订阅' : 'Active subscription';
