// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** AI Tools */
export const nav_ai_tools = (locale: Locale): string =>
  locale === 'zh-CN' ? 'AI 工具' : 'AI Tools';
