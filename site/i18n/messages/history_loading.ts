// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Loading your videos… */
export const history_loading = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在加载你的视频…' : 'Loading your videos…';
