// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Turn on JavaScript to see your videos. */
export const history_noscript = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请在浏览器中启用 JavaScript 后查看你的视频。'
    : 'Turn on JavaScript to see your videos.';
