// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Articles about making AI videos with {brand}. */
export const blog_shell_description = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? '关于使用 ' + String(p.brand) + ' 制作 AI 视频的文章。'
    : 'Articles about making AI videos with ' + String(p.brand) + '.';
