// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Make videos from your own code: keys for the /v1 API, and webhooks that tell your server when a video is ready. */
export const apiaccess_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '用你自己的代码生成视频：用于 /v1 API 的密钥，以及在视频完成时通知你服务器的 Webhook。'
    : 'Make videos from your own code: keys for the /v1 API, and webhooks that tell your server when a video is ready.';
