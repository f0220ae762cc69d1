// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Turn a text prompt or a photo into an {seconds}-second AI video with synchronized sound, made by {product}. Each video costs {cost} credits. */
export const generator_page_description = (
  locale: Locale,
  p: { cost: string | number; product: string | number; seconds: string | number },
): string =>
  locale === 'zh-CN'
    ? '用 ' +
      String(p.product) +
      ' 把一段提示词或一张照片变成带同步音效的 ' +
      String(p.seconds) +
      ' 秒 AI 视频，每个视频消耗 ' +
      String(p.cost) +
      ' 积分。'
    : 'Turn a text prompt or a photo into an ' +
      String(p.seconds) +
      '-second AI video with synchronized sound, made by ' +
      String(p.product) +
      '. Each video costs ' +
      String(p.cost) +
      ' credits.';
