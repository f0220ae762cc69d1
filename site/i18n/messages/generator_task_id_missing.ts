// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Unable to get task ID */
export const generator_task_id_missing = (locale: Locale): string =>
  locale === 'zh-CN' ? '无法获取任务编号' : 'Unable to get task ID';
