// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** AI Video Generator: Text to Video and Image to Video with {product} | {brand} */
export const generator_page_title = (
  locale: Locale,
  p: { brand: string | number; product: string | number },
): string =>
  locale === 'zh-CN'
    ? 'AI 视频生成器：用 ' + String(p.product) + ' 文生视频、图生视频 | ' + String(p.brand)
    : 'AI Video Generator: Text to Video and Image to Video with ' +
      String(p.product) +
      ' | ' +
      String(p.brand);
