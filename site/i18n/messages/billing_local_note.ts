// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Local mode: payments made with the local test checkout. With Stripe configured, Manage billing opens Stripe's customer portal instead. */
export const billing_local_note = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '本地模式：这里是用本地测试结账完成的付款。配置 Stripe 后，“管理账单”会打开 Stripe 的客户门户。'
    : "Local mode: payments made with the local test checkout. With Stripe configured, Manage billing opens Stripe's customer portal instead.";
