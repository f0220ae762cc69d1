// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** AI Video Generator · {product} */
export const generator_eyebrow = (locale: Locale, p: { product: string | number }): string =>
  locale === 'zh-CN'
    ? 'AI 视频生成器 · ' + String(p.product)
    : 'AI Video Generator · ' + String(p.product);
