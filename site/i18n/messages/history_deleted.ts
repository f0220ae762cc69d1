// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The video was deleted. */
export const history_deleted = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频已删除。' : 'The video was deleted.';
