// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Create a key with the videos:write permission, keep it in an environment variable, and start a video. Send the same Idempotency-Key when you retry a request: the video is made and charged once. */
export const apiaccess_quick_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '创建一个带 videos:write 权限的密钥，放进环境变量，然后开始生成视频。重试请求时请发送相同的 Idempotency-Key：视频只会生成并扣费一次。'
    : 'Create a key with the videos:write permission, keep it in an environment variable, and start a video. Send the same Idempotency-Key when you retry a request: the video is made and charged once.';
