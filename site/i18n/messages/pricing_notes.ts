// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Prices are in US dollars ({currency}). Payment happens on our payment provider’s secure checkout page. Subscriptions can be cancelled here at any time. See the {link} for refunds. */
export const pricing_notes = (
  locale: Locale,
  p: { currency: string | number; link: string | number },
): string =>
  locale === 'zh-CN'
    ? '价格以美元（' +
      String(p.currency) +
      '）计。付款在我们支付服务商的安全结账页面完成。订阅可随时在此页面取消。退款事宜请参阅' +
      String(p.link) +
      '。'
    : 'Prices are in US dollars (' +
      String(p.currency) +
      '). Payment happens on our payment provider’s secure checkout page. Subscriptions can be cancelled here at any time. See the ' +
      String(p.link) +
      ' for refunds.';
