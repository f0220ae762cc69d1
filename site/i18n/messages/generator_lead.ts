// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Write what should happen, or upload a photo and describe how it moves. {product} makes an {seconds}-second clip with synchronized audio that you can watch here, download and find again in your history. */
export const generator_lead = (
  locale: Locale,
  p: { product: string | number; seconds: string | number },
): string =>
  locale === 'zh-CN'
    ? '写下画面中要发生的事，或上传一张照片并描述它如何动起来。' +
      String(p.product) +
      ' 会生成一段带同步音频的 ' +
      String(p.seconds) +
      ' 秒短片，你可以在这里观看、下载，之后也能在历史记录中找到。'
    : 'Write what should happen, or upload a photo and describe how it moves. ' +
      String(p.product) +
      ' makes an ' +
      String(p.seconds) +
      '-second clip with synchronized audio that you can watch here, download and find again in your history.';
