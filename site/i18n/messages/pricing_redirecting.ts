// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Redirecting to secure checkout… */
export const pricing_redirecting = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在跳转到安全结账页面…' : 'Redirecting to secure checkout…';
