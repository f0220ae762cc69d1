// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Creating your secure checkout session… */
export const pricing_creating_session = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在创建安全结账会话…' : 'Creating your secure checkout session…';
