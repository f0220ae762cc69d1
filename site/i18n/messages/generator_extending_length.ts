// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Describe what happens next. The video grows from {from} to {to}. */
export const generator_extending_length = (
  locale: Locale,
  p: { from: string | number; to: string | number },
): string =>
  locale === 'zh-CN'
    ? '描述接下来发生的事。视频将从 ' + String(p.from) + ' 延长到 ' + String(p.to) + '。'
    : 'Describe what happens next. The video grows from ' +
      String(p.from) +
      ' to ' +
      String(p.to) +
      '.';
