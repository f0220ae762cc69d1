// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Say who or what is on screen and what happens: “a chef flips a pancake”, not “cooking”. */
export const generator_tip_subject_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '说清画面里是谁或什么、发生了什么：写“厨师翻煎饼”，而不是“做饭”。'
    : 'Say who or what is on screen and what happens: “a chef flips a pancake”, not “cooking”.';
