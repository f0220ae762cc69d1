// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Copy it now: you won't see this key again. We keep only a fingerprint of it. */
export const apiaccess_keys_once_note = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请立即复制：此密钥不会再次显示。我们只保存它的指纹。'
    : "Copy it now: you won't see this key again. We keep only a fingerprint of it.";
