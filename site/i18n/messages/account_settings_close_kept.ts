// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** We keep the records of your payments and credits, which accounting requires, under an anonymous number, without your email, name or picture. Download your data first if you want a copy. */
export const account_settings_close_kept = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '按照财务要求，我们会以匿名编号保留你的付款和积分记录，不包含你的邮箱、姓名或头像。如需副本，请先下载你的数据。'
    : 'We keep the records of your payments and credits, which accounting requires, under an anonymous number, without your email, name or picture. Download your data first if you want a copy.';
