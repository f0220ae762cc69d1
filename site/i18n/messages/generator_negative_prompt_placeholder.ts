// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** What the video should not show, e.g. text, watermarks, blur */
export const generator_negative_prompt_placeholder = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '视频中不应出现的内容，例如文字、水印、模糊'
    : 'What the video should not show, e.g. text, watermarks, blur';
