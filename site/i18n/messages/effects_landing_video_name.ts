// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {effect}: {sample} */
export const effects_landing_video_name = (
  locale: Locale,
  p: { effect: string | number; sample: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.effect) + '：' + String(p.sample)
    : String(p.effect) + ': ' + String(p.sample);
