// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The video may still finish: it will appear in your  */
export const generator_may_finish_before = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '视频可能仍会完成，届时会出现在你的'
    : 'The video may still finish: it will appear in your ';
