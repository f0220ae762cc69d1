// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Copy it now: you won't see this secret again. Your server checks each request's signature with it. */
export const apiaccess_secret_once_note = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请立即复制：此密钥不会再次显示。你的服务器用它校验每个请求的签名。'
    : "Copy it now: you won't see this secret again. Your server checks each request's signature with it.";
