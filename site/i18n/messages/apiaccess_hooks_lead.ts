// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** We send a signed POST to your endpoint when a video is ready, fails or is refunded, or when your balance runs low. Signatures follow the Standard Webhooks specification. */
export const apiaccess_hooks_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '当视频完成、失败或退款，或你的余额不足时，我们会向你的端点发送带签名的 POST 请求。签名遵循 Standard Webhooks 规范。'
    : 'We send a signed POST to your endpoint when a video is ready, fails or is refunded, or when your balance runs low. Signatures follow the Standard Webhooks specification.';
