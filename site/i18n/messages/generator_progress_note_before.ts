// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** You can stay on this page or reload it: the progress is kept. Finished videos are also saved in your  */
export const generator_progress_note_before = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你可以留在此页或刷新页面，进度不会丢失。生成的视频也会保存在你的'
    : 'You can stay on this page or reload it: the progress is kept. Finished videos are also saved in your ';
