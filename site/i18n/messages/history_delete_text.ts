// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The video and its poster are deleted for good, and links to it stop working. The credits it cost are not refunded. */
export const history_delete_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '视频及其封面将被永久删除，指向它的链接也会失效。生成它所花费的积分不会退还。'
    : 'The video and its poster are deleted for good, and links to it stop working. The credits it cost are not refunded.';
