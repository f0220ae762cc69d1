// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Type the address of your endpoint. */
export const apiaccess_hooks_url_missing = (locale: Locale): string =>
  locale === 'zh-CN' ? '请填写端点地址。' : 'Type the address of your endpoint.';
