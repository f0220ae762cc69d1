// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Subscribe for fresh credits every month, or buy a one-time credit pack. Every {seconds}-second video with sound costs {cost} credits, in text and image mode alike. */
export const pricing_lead = (
  locale: Locale,
  p: { cost: string | number; seconds: string | number },
): string =>
  locale === 'zh-CN'
    ? '订阅套餐，每月获得新积分；或购买一次性积分包。每个 ' +
      String(p.seconds) +
      ' 秒有声视频消耗 ' +
      String(p.cost) +
      ' 积分，文生视频与图生视频相同。'
    : 'Subscribe for fresh credits every month, or buy a one-time credit pack. Every ' +
      String(p.seconds) +
      '-second video with sound costs ' +
      String(p.cost) +
      ' credits, in text and image mode alike.';
