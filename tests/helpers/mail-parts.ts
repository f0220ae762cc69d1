/**
 * The parts of a mail the local mailer wrote (server/core/mailer.ts): its decoded subject, its
 * plain-text part and, for a multipart/alternative message, its HTML part.
 */

export interface MailParts {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

/** A header value as written: plain ASCII, or RFC 2047 =?UTF-8?B?…?=. */
function decodeHeader(value: string): string {
  const encoded = /^=\?UTF-8\?B\?([^?]*)\?=$/i.exec(value);
  return encoded ? Buffer.from(encoded[1]!, 'base64').toString('utf8') : value;
}

function splitHead(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end === -1 ? '' : raw.slice(end + 4) };
}

function decodePart(headers: Map<string, string>, body: string): string {
  const trimmed = body.replace(/\r\n$/, '');
  return headers.get('content-transfer-encoding') === 'base64'
    ? Buffer.from(trimmed.replace(/\r\n/g, ''), 'base64').toString('utf8')
    : trimmed;
}

/** Reads one .eml file of the outbox. */
export function mailParts(eml: string): MailParts {
  const { headers, body } = splitHead(eml);
  const to = headers.get('to') ?? '';
  const subject = decodeHeader(headers.get('subject') ?? '');
  const boundary = /boundary="([^"]+)"/.exec(headers.get('content-type') ?? '')?.[1];
  if (!boundary) return { to, subject, text: decodePart(headers, body), html: null };
  const parts = body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => splitHead(part.replace(/^\r\n/, '')));
  const of = (type: string) => {
    const part = parts.find((p) => p.headers.get('content-type')?.startsWith(type));
    return part ? decodePart(part.headers, part.body) : null;
  };
  return { to, subject, text: of('text/plain') ?? '', html: of('text/html') };
}
