// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** So you can tell your keys apart, for example “Zapier” or “staging server”. */
export const apiaccess_keys_name_hint = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '便于区分各个密钥，例如“Zapier”或“测试服务器”。'
    : 'So you can tell your keys apart, for example “Zapier” or “staging server”.';
