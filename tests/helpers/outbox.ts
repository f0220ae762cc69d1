/** The mails a test app wrote to its outbox (DATA_DIR/outbox, the local mailer's folder). */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestApp } from './app.ts';

/**
 * Every mail in `t`'s outbox to `to` (RFC 822 text, oldest first), read once the mail queued by
 * answered requests has gone out: a password reset mails after its answer.
 */
export async function outboxMailsTo(t: TestApp, to: string): Promise<string[]> {
  await t.app.accounts.queuedMailSettled();
  const dir = path.join(t.dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).sort();
  const mails = await Promise.all(files.map((file) => readFile(path.join(dir, file), 'utf8')));
  return mails.filter((mail) => mail.includes(`To: ${to}\r\n`));
}
