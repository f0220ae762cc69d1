// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Remove image {name} */
export const generator_image_remove_label = (
  locale: Locale,
  p: { name: string | number },
): string => (locale === 'zh-CN' ? '移除图片 ' + String(p.name) : 'Remove image ' + String(p.name));
