// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** An https address on your server that answers with a 2xx status. */
export const apiaccess_hooks_url_hint = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你服务器上的 https 地址，需以 2xx 状态码应答。'
    : 'An https address on your server that answers with a 2xx status.';
