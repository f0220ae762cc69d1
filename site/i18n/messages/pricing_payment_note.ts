// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** You will pay on our payment provider’s secure page and come back here afterwards. */
export const pricing_payment_note = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你将在我们支付服务商的安全页面完成付款，之后会回到此页面。'
    : 'You will pay on our payment provider’s secure page and come back here afterwards.';
