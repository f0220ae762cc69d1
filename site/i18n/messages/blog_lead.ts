// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Guides, prompt ideas and product news for making {seconds}-second AI videos with sound. */
export const blog_lead = (locale: Locale, p: { seconds: string | number }): string =>
  locale === 'zh-CN'
    ? '制作 ' + String(p.seconds) + ' 秒有声 AI 视频的指南、提示词灵感和产品动态。'
    : 'Guides, prompt ideas and product news for making ' +
      String(p.seconds) +
      '-second AI videos with sound.';
