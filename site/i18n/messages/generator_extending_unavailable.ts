// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** This video is not one of your finished videos, so it cannot be extended. */
export const generator_extending_unavailable = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '这个视频不在你已完成的视频中，无法延长。'
    : 'This video is not one of your finished videos, so it cannot be extended.';
