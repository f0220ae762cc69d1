// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Video generator */
export const generator_workspace_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频生成器' : 'Video generator';
