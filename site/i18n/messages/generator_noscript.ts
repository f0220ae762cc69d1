// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Turn on JavaScript to generate videos. */
export const generator_noscript = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请在浏览器中启用 JavaScript 后再生成视频。'
    : 'Turn on JavaScript to generate videos.';
