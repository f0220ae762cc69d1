// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** You get a new secret, shown once. The old one keeps signing too for {hours} hours, so you can switch your server over without missing an event. */
export const apiaccess_rotate_text = (locale: Locale, p: { hours: string | number }): string =>
  locale === 'zh-CN'
    ? '你将获得一个新密钥，仅显示一次。旧密钥在 ' +
      String(p.hours) +
      ' 小时内仍会同时签名，方便你切换服务器而不漏掉事件。'
    : 'You get a new secret, shown once. The old one keeps signing too for ' +
      String(p.hours) +
      ' hours, so you can switch your server over without missing an event.';
