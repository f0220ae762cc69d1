// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Not enough credits! Generating a {model} video requires {cost} credits, you currently have {have} credits */
export const generator_not_enough_credits_detail = (
  locale: Locale,
  p: { cost: string | number; have: string | number; model: string | number },
): string =>
  locale === 'zh-CN'
    ? '积分不足！生成 ' +
      String(p.model) +
      ' 视频需要 ' +
      String(p.cost) +
      ' 积分，你当前有 ' +
      String(p.have) +
      ' 积分'
    : 'Not enough credits! Generating a ' +
      String(p.model) +
      ' video requires ' +
      String(p.cost) +
      ' credits, you currently have ' +
      String(p.have) +
      ' credits';
