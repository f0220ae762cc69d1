/**
 * Outgoing mail behind one interface. Local mode writes each message to DATA_DIR/outbox as an
 * .eml file a developer can open; production sends through SMTP_URL.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the text (a receipt): the message becomes multipart/alternative. */
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** A header value as RFC 2047 asks: ASCII as it is, anything else (a Chinese subject) base64. */
function encodeHeader(value: string): string {
  return /^[\x20-\x7e]*$/.test(value)
    ? value
    : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** base64 in lines of 76 characters, as MIME asks (an HTML part's lines can be any length). */
function base64Lines(text: string): string {
  const encoded = Buffer.from(text, 'utf8').toString('base64');
  return (encoded.match(/.{1,76}/g) ?? []).join('\r\n');
}

/** The content headers and body of a message: its text, or its text and HTML as alternatives. */
function mimeBody(mail: Mail): string[] {
  const textPart = ['Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit'];
  if (mail.html === undefined) return [...textPart, '', mail.text];
  const boundary = `alt-${randomBytes(12).toString('hex')}`;
  return [
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    ...textPart,
    '',
    mail.text,
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(mail.html),
    `--${boundary}--`,
  ];
}

/** Local adapter: one RFC 822 file per message under `dir`. */
export function createOutboxMailer(dir: string, from: string): Mailer {
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const body = [
        `From: ${from}`,
        `To: ${mail.to}`,
        `Subject: ${encodeHeader(mail.subject)}`,
        `Date: ${new Date().toUTCString()}`,
        'MIME-Version: 1.0',
        ...mimeBody(mail),
        '',
      ].join('\r\n');
      await writeFile(path.join(dir, name), body, { mode: 0o600 });
    },
  };
}

/** Production adapter: SMTP through nodemailer, e.g. smtps://user:pass@smtp.example.com:465. */
export async function createSmtpMailer(smtpUrl: string, from: string): Promise<Mailer> {
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
      });
    },
  };
}

/** The configured mailer: SMTP when SMTP_URL is set, otherwise the outbox in DATA_DIR. */
export async function createConfiguredMailer(config: {
  dataDir: string;
  mail: { smtpUrl: string | null; from: string };
}): Promise<Mailer> {
  return config.mail.smtpUrl
    ? createSmtpMailer(config.mail.smtpUrl, config.mail.from)
    : createOutboxMailer(path.join(config.dataDir, 'outbox'), config.mail.from);
}
