// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your subscription ends {now}: it is cancelled immediately and will not renew, and no further monthly credits will be added. */
export const pricing_cancel_ends = (locale: Locale, p: { now: string | number }): string =>
  locale === 'zh-CN'
    ? '你的订阅将' + String(p.now) + '终止：取消立即生效，不会续订，此后也不再每月发放积分。'
    : 'Your subscription ends ' +
      String(p.now) +
      ': it is cancelled immediately and will not renew, and no further monthly credits will be added.';
