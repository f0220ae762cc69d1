// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Signing secret for {url} */
export const apiaccess_hooks_secret_heading = (
  locale: Locale,
  p: { url: string | number },
): string =>
  locale === 'zh-CN' ? String(p.url) + ' 的签名密钥' : 'Signing secret for ' + String(p.url);
