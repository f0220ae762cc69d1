// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Video generation progress */
export const generator_progress_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频生成进度' : 'Video generation progress';
