// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Could not copy it. The text is selected: copy it with your keyboard. */
export const apiaccess_copy_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无法复制。文本已选中，请用键盘复制。'
    : 'Could not copy it. The text is selected: copy it with your keyboard.';
