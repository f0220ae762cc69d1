/**
 * The account emails (confirm an address, reset a password) in the user's language (issue 21):
 * the language of the request that sent them (Accept-Language, which the site sets to the page's
 * language). The links lead to the site's pages for them, in the same language. Their sentences
 * are keys of the API's catalogue (messages/api, `mail.*`).
 */
import type { Locale } from '../../../shared/locales.ts';
import { msg } from '../../core/api-messages.ts';
import type { Mail } from '../../core/mailer.ts';

type Content = Omit<Mail, 'to'>;

export type VerificationReason = 'sign-up' | 'sign-in';

export const verificationEmail = (
  locale: Locale,
  link: string,
  reason: VerificationReason,
): Content => ({
  subject: msg('mail.verify.subject').render(locale),
  text: msg('mail.verify.body', {
    reason: reason === 'sign-up' ? 'sign_up' : 'sign_in',
    link,
  }).render(locale),
});

export const resetEmail = (locale: Locale, link: string): Content => ({
  subject: msg('mail.reset.subject').render(locale),
  text: msg('mail.reset.body', { link }).render(locale),
});
