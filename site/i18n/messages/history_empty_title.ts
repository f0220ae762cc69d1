// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** No completed videos yet */
export const history_empty_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '还没有已完成的视频' : 'No completed videos yet';
