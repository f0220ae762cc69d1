// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** A POST /v1/videos request can name its own webhook_url. That request's events are sent there, signed with this secret. */
export const apiaccess_request_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? 'POST /v1/videos 请求可以指定自己的 webhook_url。该请求的事件会发送到那里，并用此密钥签名。'
    : "A POST /v1/videos request can name its own webhook_url. That request's events are sent there, signed with this secret.";
