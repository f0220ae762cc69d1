// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** You have no secret for webhook_url yet. Create one before you send requests with a webhook_url. */
export const apiaccess_request_none = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你还没有 webhook_url 的签名密钥。发送带 webhook_url 的请求之前，请先创建一个。'
    : 'You have no secret for webhook_url yet. Create one before you send requests with a webhook_url.';
