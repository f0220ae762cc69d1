/**
 * Issue 21: the API answers in the language the client asks for (Accept-Language), codes
 * unchanged: errors, confirmations and a video task's status; English stays the default.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { requestGeneration } from '../helpers/video.ts';

describe.each(databaseKinds)('API language on %s', (kind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ token } = await signInLocal(t.app, 'lang@example.com', 'Lang'));
  });
  afterAll(() => t.close());

  // An empty prompt: 'Please enter a prompt' (spec 8).
  const generate = (headers: Record<string, string>) =>
    requestGeneration(t.app, token, { prompt: '   ', model: 'veo3' }, undefined, headers);

  it('answers an error in Chinese for a Chinese client, with the same code and status', async () => {
    const english = await generate({});
    const chinese = await generate({ 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' });
    expect(chinese.statusCode).toBe(english.statusCode);
    expect(chinese.json().code).toBe(english.json().code);
    expect(english.json().message).toBe('Please enter a prompt');
    expect(chinese.json().message).toMatch(/\p{Script=Han}/u);
    expect(chinese.headers.vary).toMatch(/Accept-Language/i);
  });

  it('keeps English for an English or unknown language', async () => {
    const english = await generate({});
    for (const lang of ['en-US', 'fr-FR', 'de;q=0.9']) {
      expect((await generate({ 'accept-language': lang })).json().message).toBe(
        english.json().message,
      );
    }
  });

  it('translates schema errors, unknown addresses and sign-in refusals', async () => {
    const zh = { 'accept-language': 'zh-CN' };
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/auth/local',
      headers: zh,
      payload: { name: 'A' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('VALIDATION_ERROR');
    expect(invalid.json().message).toMatch(/\p{Script=Han}/u);
    expect(invalid.json().message).toContain('email');

    const missing = await t.app.inject({ url: '/api/no-such-thing', headers: zh });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/\p{Script=Han}/u);
    expect(missing.json().message).toContain('/api/no-such-thing');

    const signedOut = await t.app.inject({ url: '/api/credits/balance', headers: zh });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().message).toMatch(/\p{Script=Han}/u);
  });

  /** The outbox mails to `to`: subject (RFC 2047 decoded) and body. */
  async function mailsTo(to: string): Promise<{ subject: string; body: string }[]> {
    await t.app.accounts.queuedMailSettled(); // a reset mails after its answer
    const outbox = path.join(t.dataDir, 'outbox');
    const raw = await Promise.all(
      (await readdir(outbox)).map((file) => readFile(path.join(outbox, file), 'utf8')),
    );
    return raw
      .filter((mail) => mail.includes(`To: ${to}\r\n`))
      .map((mail) => {
        const subject = /^Subject: (.*)$/m.exec(mail)?.[1]?.trim() ?? '';
        const encoded = /^=\?UTF-8\?B\?(.*)\?=$/.exec(subject);
        return {
          subject: encoded ? Buffer.from(encoded[1]!, 'base64').toString('utf8') : subject,
          body: mail.split('\r\n\r\n').slice(1).join('\r\n\r\n'),
        };
      });
  }

  it('mails the confirmation and the reset link in the language of the request', async () => {
    const signUp = (email: string, lang: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/signup',
        headers: { 'accept-language': lang },
        payload: { email, password: 'a long enough password 1' },
      });
    expect((await signUp('mei@example.com', 'zh-CN,zh;q=0.9')).statusCode).toBe(200);
    expect((await signUp('max@example.com', 'en-GB')).statusCode).toBe(200);
    const [chinese] = await mailsTo('mei@example.com');
    expect(chinese?.subject).toBe('请确认你的邮箱地址');
    expect(chinese?.body).toMatch(/24 小时内有效[\s\S]*\/zh\/verify-email\?token=/);
    const [english] = await mailsTo('max@example.com');
    expect(english?.subject).toBe('Confirm your email address');
    expect(english?.body).toMatch(/\/verify-email\?token=/);
    expect(english?.body).not.toContain('/zh/');

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { 'accept-language': 'zh-CN' },
      payload: { email: 'lang@example.com' },
    });
    expect(reset.json().message).toMatch(/\p{Script=Han}/u);
    const mails = await mailsTo('lang@example.com');
    const resetMail = mails.find((mail) => mail.subject === '重置你的密码');
    expect(resetMail?.body).toMatch(/\/zh\/reset-password\?token=/);
  });
});
