// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Prompt: how should the image move? */
export const generator_prompt_label_image = (locale: Locale): string =>
  locale === 'zh-CN' ? '提示词：图片该如何动起来？' : 'Prompt: how should the image move?';
