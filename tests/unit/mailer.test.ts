import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { createOutboxMailer, createSmtpMailer } from '../../server/core/mailer.ts';

const mail = {
  to: 'reader@example.com',
  subject: 'Reset your password',
  text: 'Follow the link: https://x/y',
};

describe('mailers', () => {
  it('local mode writes each message to the outbox as an .eml file', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'outbox-')), 'outbox');
    await createOutboxMailer(dir, 'Veo3 Studio <support@veo3studio.app>').send(mail);
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await readFile(path.join(dir, files[0]!), 'utf8');
    expect(eml).toContain('To: reader@example.com');
    expect(eml).toContain('Subject: Reset your password');
    expect(eml).toContain('Follow the link: https://x/y');
  });

  it('production sends through SMTP_URL', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    try {
      const mailer = await createSmtpMailer(
        `smtp://127.0.0.1:${port}`,
        'Veo3 Studio <support@veo3studio.app>',
      );
      await mailer.send(mail);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatch(/^To: reader@example\.com/m);
      expect(received[0]).toMatch(/^Subject: Reset your password/m);
      expect(received[0]).toContain('Follow the link: https://x/y');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
