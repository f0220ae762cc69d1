// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {tagline} Describe a scene or upload a photo, and get a clip with synchronized audio you can download and keep. */
export const home_lead = (locale: Locale, p: { tagline: string | number }): string =>
  locale === 'zh-CN'
    ? String(p.tagline) + '描述一个场景或上传一张照片，即可得到一段带同步音频的短片，随时下载保存。'
    : String(p.tagline) +
      ' Describe a scene or upload a photo, and get a clip with synchronized audio you can download and keep.';
