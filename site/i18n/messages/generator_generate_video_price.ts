// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Generate Video · {credits} */
export const generator_generate_video_price = (
  locale: Locale,
  p: { credits: string | number },
): string =>
  locale === 'zh-CN' ? '生成视频 · ' + String(p.credits) : 'Generate Video · ' + String(p.credits);
