// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {count} reference images */
export const generator_summary_references_other = (
  locale: Locale,
  p: { count: string | number },
): string =>
  locale === 'zh-CN' ? String(p.count) + ' 张参考图' : String(p.count) + ' reference images';
