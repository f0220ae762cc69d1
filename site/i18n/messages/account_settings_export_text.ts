// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** A JSON file with your profile, your credits history, your videos and your payments. */
export const account_settings_export_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '一个 JSON 文件，包含你的个人资料、积分记录、视频和付款记录。'
    : 'A JSON file with your profile, your credits history, your videos and your payments.';
