// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Cancel your {plan} subscription? */
export const pricing_cancel_title = (locale: Locale, p: { plan: string | number }): string =>
  locale === 'zh-CN'
    ? '取消你的 ' + String(p.plan) + ' 订阅？'
    : 'Cancel your ' + String(p.plan) + ' subscription?';
