// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** A key lets a program act for your account through the /v1 API. Keep it secret: anyone who has it can spend your credits. */
export const apiaccess_keys_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '程序可以凭密钥通过 /v1 API 代表你的账户操作。请妥善保管：任何持有密钥的人都能花费你的积分。'
    : 'A key lets a program act for your account through the /v1 API. Keep it secret: anyone who has it can spend your credits.';
