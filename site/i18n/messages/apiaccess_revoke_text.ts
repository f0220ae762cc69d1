// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Programs that use it stop working at once: every request with it is refused. This cannot be undone. */
export const apiaccess_revoke_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '使用它的程序将立即停止工作：携带此密钥的请求都会被拒绝。此操作无法撤销。'
    : 'Programs that use it stop working at once: every request with it is refused. This cannot be undone.';
