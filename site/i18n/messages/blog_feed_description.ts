// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Guides, prompt tips and news about making AI videos with sound with {brand}. */
export const blog_feed_description = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? '使用 ' + String(p.brand) + ' 制作有声 AI 视频的指南、提示词技巧和最新动态。'
    : 'Guides, prompt tips and news about making AI videos with sound with ' +
      String(p.brand) +
      '.';
