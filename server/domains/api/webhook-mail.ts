/**
 * The mail to a user whose webhook endpoint was disabled (issue 36, item 4). An account keeps no
 * language (the account mails use the language of the request that sent them) and this one is
 * sent by the dispatcher, not during a request, so it is written in both languages, English
 * first, each with its link to /account/api in that language.
 */
import { LOCALES, PATH_PREFIXES } from '../../../shared/locales.ts';
import { WEBHOOK_DISABLE_AFTER_DAYS } from '../../../shared/public-api.ts';
import { msg } from '../../core/api-messages.ts';
import type { Mail } from '../../core/mailer.ts';

/** Why an endpoint was disabled: it answered 410 Gone, or its deliveries failed for days. */
export type DisableReason = 'gone' | 'failing';

export function endpointDisabledMail(
  to: string,
  url: string,
  reason: DisableReason,
  siteUrl: string,
): Mail {
  const subject = msg('webhooks.mail_disabled_subject');
  const body = (locale: (typeof LOCALES)[number]) =>
    msg('webhooks.mail_disabled_body', {
      url,
      reason,
      days: WEBHOOK_DISABLE_AFTER_DAYS,
      link: `${siteUrl}${PATH_PREFIXES[locale]}/account/api`,
    }).render(locale);
  return {
    to,
    subject: LOCALES.map((locale) => subject.render(locale)).join(' / '),
    text: LOCALES.map(body).join('\n\n-----\n\n'),
  };
}
