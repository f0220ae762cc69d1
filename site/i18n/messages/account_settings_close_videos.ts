// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** every video you made is deleted, with its poster and its links; */
export const account_settings_close_videos = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你生成的所有视频及其封面和链接都会被删除；'
    : 'every video you made is deleted, with its poster and its links;';
