// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your video will appear here */
export const generator_idle_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频将显示在这里' : 'Your video will appear here';
