/**
 * The account emails (confirm an address, reset a password) in the user's language (issue 21):
 * the language of the request that sent them (Accept-Language, which the site sets to the page's
 * language). The links lead to the site's pages for them, in the same language.
 */
import type { Locale } from '../../../shared/locales.ts';
import type { Mail } from '../../core/mailer.ts';

type Content = Omit<Mail, 'to'>;

export type VerificationReason = 'sign-up' | 'sign-in';

const VERIFICATION: Record<Locale, (link: string, reason: VerificationReason) => Content> = {
  en: (link, reason) => ({
    subject: 'Confirm your email address',
    text: [
      reason === 'sign-up'
        ? 'Someone signed up with this email address.'
        : 'Someone signed in with the password of the account under this email address, which is not confirmed yet.',
      '',
      'If it was you, confirm the address here (the link works once, for 24 hours):',
      link,
      '',
      'If it was not you, ignore this message and do not open the link: nothing changes without it.',
    ].join('\n'),
  }),
  'zh-CN': (link, reason) => ({
    subject: '请确认你的邮箱地址',
    text: [
      reason === 'sign-up'
        ? '有人使用此邮箱地址注册了账户。'
        : '有人使用此邮箱地址下账户的密码登录，但该邮箱尚未确认。',
      '',
      '如果是你本人，请在此确认邮箱地址（链接仅可使用一次，24 小时内有效）：',
      link,
      '',
      '如果不是你本人，请忽略此邮件，也不要打开链接：不打开链接就不会有任何变化。',
    ].join('\n'),
  }),
};

const RESET: Record<Locale, (link: string) => Content> = {
  en: (link) => ({
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of your account.',
      '',
      'Choose a new password here (the link works once, for one hour):',
      link,
      '',
      'If it was not you, ignore this message; your password stays as it is.',
    ].join('\n'),
  }),
  'zh-CN': (link) => ({
    subject: '重置你的密码',
    text: [
      '有人申请重置你账户的密码。',
      '',
      '请在此设置新密码（链接仅可使用一次，1 小时内有效）：',
      link,
      '',
      '如果不是你本人，请忽略此邮件；你的密码将保持不变。',
    ].join('\n'),
  }),
};

export const verificationEmail = (locale: Locale, link: string, reason: VerificationReason) =>
  VERIFICATION[locale](link, reason);

export const resetEmail = (locale: Locale, link: string) => RESET[locale](link);
