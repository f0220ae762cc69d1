// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** a subscription ends at once, without a refund for the current period; */
export const account_settings_close_subscription = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '订阅会立即终止，当前周期不予退款；'
    : 'a subscription ends at once, without a refund for the current period;';
