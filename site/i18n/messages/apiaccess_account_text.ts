// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Make videos from your own code with an API key, and get a webhook when they are ready. */
export const apiaccess_account_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '使用 API 密钥通过你自己的代码生成视频，并在视频完成时收到 Webhook 通知。'
    : 'Make videos from your own code with an API key, and get a webhook when they are ready.';
