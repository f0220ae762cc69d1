// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Name the shot and the mood: close-up, drone shot, slow motion, golden hour, neon night. */
export const generator_tip_camera_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '写明镜头和氛围：特写、航拍、慢动作、黄金时刻、霓虹夜景。'
    : 'Name the shot and the mood: close-up, drone shot, slow motion, golden hour, neon night.';
