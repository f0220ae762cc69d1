// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Every clip has audio. Describe it: dialogue in quotes, music style, ambient noise. */
export const generator_tip_sound_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '每段视频都有声音。请描述它：用引号写出对白，说明音乐风格和环境音。'
    : 'Every clip has audio. Describe it: dialogue in quotes, music style, ambient noise.';
