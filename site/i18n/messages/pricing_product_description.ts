// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Credits for AI videos with sound: every {cost}-credit video is an {seconds}-second clip from a text prompt or an image. Monthly plans or one-time packs. */
export const pricing_product_description = (
  locale: Locale,
  p: { cost: string | number; seconds: string | number },
): string =>
  locale === 'zh-CN'
    ? '用于生成 AI 有声视频的积分：每个视频消耗 ' +
      String(p.cost) +
      ' 积分，是一段由文字提示词或图片生成的 ' +
      String(p.seconds) +
      ' 秒短片。可选月度套餐或一次性积分包。'
    : 'Credits for AI videos with sound: every ' +
      String(p.cost) +
      '-credit video is an ' +
      String(p.seconds) +
      '-second clip from a text prompt or an image. Monthly plans or one-time packs.';
