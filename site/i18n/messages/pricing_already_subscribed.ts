// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** You already have an active subscription. Please cancel it first to switch plans. */
export const pricing_already_subscribed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你已有生效中的订阅。如需切换套餐，请先取消当前订阅。'
    : 'You already have an active subscription. Please cancel it first to switch plans.';
