import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoogleIdentity } from '../../server/domains/accounts/google-identity.ts';
import { startGoogleFake, type GoogleFake } from '../fakes/google.ts';
import {
  bearer,
  createTestApp,
  PRODUCTION_ENV,
  signInLocal,
  type TestApp,
} from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

describe.each(databaseKinds)('accounts on %s', (kind) => {
  let google: GoogleFake;
  let t: TestApp;

  beforeAll(async () => {
    google = await startGoogleFake({ clientId: 'our-client.apps.googleusercontent.com' });
    t = await createTestApp(kind, {
      env: {
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_JWKS_URL: google.jwksUrl,
        GOOGLE_TOKENINFO_URL: google.tokeninfoUrl,
        GOOGLE_USERINFO_URL: google.userinfoUrl,
        BLOG_EDITORS: 'Editor@Example.com, second@example.com',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });

  const postGoogle = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/auth/google', payload });

  /** The outbox mails to `to` whose subject is `subject`, as text (resets mail after answering). */
  async function mailsTo(to: string, subject: string): Promise<string[]> {
    await t.app.accounts.queuedMailSettled();
    const outbox = path.join(t.dataDir, 'outbox');
    const mails = await Promise.all(
      (await readdir(outbox)).map((file) => readFile(path.join(outbox, file), 'utf8')),
    );
    return mails.filter(
      (mail) => mail.includes(`To: ${to}\r\n`) && mail.includes(`Subject: ${subject}\r\n`),
    );
  }

  /** Signs up and opens the confirmation link, as the owner of the mailbox would. */
  async function signUpAndConfirm(payload: { email: string; password: string; name?: string }) {
    const up = await t.app.inject({ method: 'POST', url: '/auth/signup', payload });
    expect(up.statusCode).toBe(200);
    const [mail] = await mailsTo(payload.email, 'Confirm your email address');
    const token = /verify-email\?token=([\w-]+)/.exec(mail ?? '')?.[1];
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token },
    });
    expect(verified.statusCode).toBe(200);
    return verified.json().data as { token: string; user: { provider: string; name: string } };
  }

  describe('POST /api/auth/google with an ID token', () => {
    it('signs in with a valid token and answers { token, user }', async () => {
      const credential = await google.signIdToken({
        email: 'grace@example.com',
        name: 'Grace Hopper',
        picture: 'https://lh3.googleusercontent.com/a/grace',
      });
      const res = await postGoogle({ credential });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.data.token).toMatch(/^[\w-]{43}$/);
      expect(body.data.user).toMatchObject({
        email: 'grace@example.com',
        name: 'Grace Hopper',
        picture: 'https://lh3.googleusercontent.com/a/grace',
        provider: 'google',
        credits: 0,
        can_manage_blog: false,
      });
      const me = await t.app.inject({ url: '/api/auth/user', headers: bearer(body.data.token) });
      expect(me.json().data.user.email).toBe('grace@example.com');
    });

    it('reuses the same account when the same Google user signs in again', async () => {
      const a = (
        await postGoogle({
          credential: await google.signIdToken({ sub: 'sub-1', email: 'same@example.com' }),
        })
      ).json();
      const b = (
        await postGoogle({
          credential: await google.signIdToken({ sub: 'sub-1', email: 'same@example.com' }),
        })
      ).json();
      expect(a.data.user.id).toBe(b.data.user.id);
      expect(a.data.token).not.toBe(b.data.token);
    });

    it.each([
      [
        'issued for another client',
        { aud: 'someone-else.apps.googleusercontent.com' },
        {},
        'GOOGLE_AUDIENCE_MISMATCH',
      ],
      ['from another issuer', { iss: 'https://evil.example.com' }, {}, 'GOOGLE_TOKEN_INVALID'],
      [
        'that has expired',
        { exp: Math.floor(Date.now() / 1000) - 600, iat: Math.floor(Date.now() / 1000) - 4200 },
        {},
        'GOOGLE_TOKEN_EXPIRED',
      ],
      ['with a bad signature', {}, { signWithForeignKey: true }, 'GOOGLE_TOKEN_INVALID'],
      ['whose email is not verified', { email_verified: false }, {}, 'GOOGLE_EMAIL_UNVERIFIED'],
    ])('refuses a token %s with 401 and creates no account', async (_name, claims, opts, code) => {
      const email = `refused-${code.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`;
      const credential = await google.signIdToken({ email, ...claims }, opts);
      const res = await postGoogle({ credential });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code });
      expect(res.json().message).toMatch(/\w+/);
      const signup = await t.app.inject({
        method: 'POST',
        url: '/auth/signin',
        payload: { email, password: 'whatever-123' },
      });
      expect(signup.statusCode).toBe(401); // still no such account
    });

    it('asks for a credential or token when the body has neither', async () => {
      const res = await postGoogle({});
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/credential.*token/);
    });

    it('grants blog management to emails named in BLOG_EDITORS', async () => {
      const credential = await google.signIdToken({ email: 'editor@example.com' });
      const res = await postGoogle({ credential });
      expect(res.json().data.user.can_manage_blog).toBe(true);
    });
  });

  describe("POST /api/auth/google with an access token (the spec's token form)", () => {
    it('signs in when tokeninfo says the token is ours', async () => {
      const token = google.issueAccessToken({ email: 'access@example.com', name: 'Ada' });
      const res = await postGoogle({ token });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user).toMatchObject({ email: 'access@example.com', name: 'Ada' });
    });

    it('refuses an access token issued to another client', async () => {
      const token = google.issueAccessToken(
        { email: 'other-aud@example.com' },
        { aud: 'x', azp: 'x' },
      );
      const res = await postGoogle({ token });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('GOOGLE_AUDIENCE_MISMATCH');
    });
  });

  describe('POST /api/auth/local', () => {
    it('creates an account, then reuses it for the same email in any case', async () => {
      const a = await signInLocal(t.app, 'Local@Example.com', 'Lou');
      const b = await signInLocal(t.app, 'local@example.com', 'Lou');
      expect(a.user.id).toBe(b.user.id);
      expect(a.user.email).toBe('local@example.com');
    });

    it.each([
      [{ name: 'Ann' }, /email/],
      [{ name: '', email: 'a@example.com' }, /name/],
      [{ name: 'Ann', email: 'not-an-email' }, /email/],
      [{ name: 'Ann', email: 'a@example.com', admin: true }, /admin/],
    ])('answers 400 with a message naming the field for %j', async (payload, pattern) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/local', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(res.json().message).toMatch(pattern);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: 'The request body is not valid JSON.',
      });
    });
  });

  describe('sessions', () => {
    it('revokes the session on sign-out', async () => {
      const { token } = await signInLocal(t.app, 'signout@example.com');
      const before = await t.app.inject({ url: '/api/auth/user', headers: bearer(token) });
      expect(before.statusCode).toBe(200);
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signout',
        headers: bearer(token),
      });
      expect(out.statusCode).toBe(200);
      const after = await t.app.inject({ url: '/api/auth/user', headers: bearer(token) });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ success: false, code: 'SIGN_IN_REQUIRED' });
    });

    it('treats an unknown bearer token as signed out', async () => {
      const res = await t.app.inject({
        url: '/api/credits/balance',
        headers: bearer('x'.repeat(43)),
      });
      expect(res.statusCode).toBe(401);
    });

    it('answers 403 when x-user-id disagrees with the session', async () => {
      const ann = await signInLocal(t.app, 'ann-hdr@example.com');
      const bob = await signInLocal(t.app, 'bob-hdr@example.com');
      const res = await t.app.inject({
        url: '/api/credits/balance',
        headers: { ...bearer(ann.token), 'x-user-id': bob.user.id },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, code: 'IDENTITY_MISMATCH' });
      const email = await t.app.inject({
        url: '/api/credits/balance',
        headers: { ...bearer(ann.token), 'x-user-email': 'bob-hdr@example.com' },
      });
      expect(email.statusCode).toBe(403);
    });

    it('accepts identity headers that match the session', async () => {
      const ann = await signInLocal(t.app, 'ann-match@example.com');
      const res = await t.app.inject({
        url: '/api/credits/balance',
        headers: {
          ...bearer(ann.token),
          'x-user-id': ann.user.id,
          'x-user-email': 'ANN-match@example.com',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ total_credits: 0, transactions: [] });
    });

    it('answers 403 to identity headers without a session', async () => {
      const res = await t.app.inject({ url: '/api/health', headers: { 'x-user-id': 'someone' } });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('email accounts', () => {
    it('signs up, signs in, and refuses a wrong password with a generic message', async () => {
      const confirmed = await signUpAndConfirm({
        email: 'pw@example.com',
        password: 'correct horse',
        name: 'Pat',
      });
      expect(confirmed.user).toMatchObject({ provider: 'email', name: 'Pat' });
      const again = await t.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: 'PW@example.com', password: 'another one' },
      });
      expect(again.statusCode).toBe(409);
      const good = await t.app.inject({
        method: 'POST',
        url: '/auth/signin',
        payload: { email: 'pw@example.com', password: 'correct horse' },
      });
      expect(good.statusCode).toBe(200);
      const bad = await t.app.inject({
        method: 'POST',
        url: '/auth/signin',
        payload: { email: 'pw@example.com', password: 'wrong horse' },
      });
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/auth/signin',
        payload: { email: 'nobody@example.com', password: 'wrong horse' },
      });
      expect(bad.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(bad.json()).toEqual(unknown.json());
    });

    it('mails a single-use reset link and answers the same for unknown emails', async () => {
      await signUpAndConfirm({ email: 'reset@example.com', password: 'old password' });
      const session = (
        await t.app.inject({
          method: 'POST',
          url: '/auth/signin',
          payload: { email: 'reset@example.com', password: 'old password' },
        })
      ).json().data.token as string;
      const known = await t.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email: 'reset@example.com' },
      });
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email: 'ghost@example.com' },
      });
      expect(known.statusCode).toBe(200);
      expect(known.json()).toEqual(unknown.json());

      const resetMails = await mailsTo('reset@example.com', 'Reset your password');
      expect(resetMails).toHaveLength(1);
      expect(await mailsTo('ghost@example.com', 'Reset your password')).toHaveLength(0);
      const mail = resetMails[0]!;
      const token = /reset-password\?token=([\w-]+)/.exec(mail)?.[1];
      expect(token).toBeTruthy();

      const confirm = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/reset-password/confirm',
          payload: { token, password },
        });
      expect((await confirm('new password')).statusCode).toBe(200);
      const reused = await confirm('third password');
      expect(reused.statusCode).toBe(400);
      expect(reused.json().code).toBe('RESET_TOKEN_INVALID');

      const oldSession = await t.app.inject({ url: '/api/auth/user', headers: bearer(session) });
      expect(oldSession.statusCode).toBe(401);
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/auth/signin',
        payload: { email: 'reset@example.com', password: 'new password' },
      });
      expect(signIn.statusCode).toBe(200);
    });
  });

  describe('GET /api/health', () => {
    it('reports the database as up', async () => {
      const res = await t.app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, status: 'ok', database: 'up' });
    });
  });
});

describe('sign-in in production', () => {
  it('has no local sign-in route', async () => {
    const google = await startGoogleFake();
    const t = await createTestApp('pglite', {
      env: { ...PRODUCTION_ENV, GOOGLE_CLIENT_ID: google.clientId },
      deps: { google: createGoogleIdentity({ ...google, clientId: google.clientId }) },
    });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        payload: { name: 'Mallory', email: 'mallory@example.com' },
      });
      expect(res.statusCode).toBe(404);
      const cfg = await t.app.inject({ url: '/api/auth/config' });
      expect(cfg.json().data).toEqual({ googleClientId: google.clientId, localSignIn: false });
      // Every signed-out page view asks for it: browsers keep it for five minutes.
      expect(cfg.headers['cache-control']).toBe('public, max-age=300');
      const headers = (await t.app.inject({ url: '/api/health' })).headers;
      expect(headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      await t.close();
      await google.close();
    }
  });
});
