// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Turn on JavaScript to read this article. */
export const blog_noscript = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请开启 JavaScript 以阅读这篇文章。'
    : 'Turn on JavaScript to read this article.';
