// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Describe the subject, the action, the setting, the camera and the sound. For example: A golden retriever surfs a wave at sunset, slow-motion tracking shot, waves crashing and seagulls calling. */
export const generator_placeholder_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '描述主体、动作、场景、镜头和声音。例如：一只金毛犬在日落时冲浪，慢动作跟拍，海浪拍岸，海鸥鸣叫。'
    : 'Describe the subject, the action, the setting, the camera and the sound. For example: A golden retriever surfs a wave at sunset, slow-motion tracking shot, waves crashing and seagulls calling.';
