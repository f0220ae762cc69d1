// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Rotate secret */
export const apiaccess_request_rotate = (locale: Locale): string =>
  locale === 'zh-CN' ? '轮换密钥' : 'Rotate secret';
