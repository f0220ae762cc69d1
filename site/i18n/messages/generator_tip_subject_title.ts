// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Subject and action */
export const generator_tip_subject_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '主体与动作' : 'Subject and action';
