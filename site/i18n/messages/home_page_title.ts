// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {brand}: AI video generator with sound, from text or an image */
export const home_page_title = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? String(p.brand) + '：AI 有声视频生成器，文字或图片一键成片'
    : String(p.brand) + ': AI video generator with sound, from text or an image';
