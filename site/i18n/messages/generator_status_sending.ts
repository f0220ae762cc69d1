// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sending your prompt… */
export const generator_status_sending = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在提交提示词…' : 'Sending your prompt…';
