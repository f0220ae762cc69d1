/**
 * Finding 8 of issue 34: a Google token signed in when its audience (`aud`) OR its authorized
 * party (`azp`) was our client id, so a token issued to another site's client that named us as
 * one audience signed its holder in here. Now the authorized party must be our client, and every
 * audience too where the token names any: for GIS ID tokens and for access tokens (tokeninfo).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema.ts';
import { startGoogleFake, type FakeIdTokenClaims, type GoogleFake } from '../fakes/google.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

const OTHER_CLIENT = '4242-other-site.apps.googleusercontent.com';

describe('Google token audience', () => {
  describe.each(databaseKinds)('on %s', (kind) => {
    let google: GoogleFake;
    let t: TestApp;

    beforeAll(async () => {
      google = await startGoogleFake();
      t = await createTestApp(kind, {
        env: {
          GOOGLE_CLIENT_ID: google.clientId,
          GOOGLE_JWKS_URL: google.jwksUrl,
          GOOGLE_TOKENINFO_URL: google.tokeninfoUrl,
          GOOGLE_USERINFO_URL: google.userinfoUrl,
        },
      });
    });
    afterAll(async () => {
      await t?.close();
      await google?.close();
    });

    const signIn = (body: { credential?: string; token?: string }) =>
      t.app.inject({ method: 'POST', url: '/api/auth/google', payload: body });
    const accountOf = async (email: string) =>
      (await t.database.db.select().from(users).where(eq(users.email, email)))[0];

    async function expectRefused(body: { credential?: string; token?: string }, email: string) {
      const res = await signIn(body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 'GOOGLE_AUDIENCE_MISMATCH' });
      expect(res.json().message).toMatch(/\w+/);
      expect(await accountOf(email), 'no account is created').toBeUndefined();
    }

    it('signs in with an ID token issued to our client', async () => {
      const credential = await google.signIdToken({ email: 'ours-id@example.com' });
      expect((await signIn({ credential })).statusCode).toBe(200);
    });

    it.each<[string, () => Partial<FakeIdTokenClaims>]>([
      ['whose azp is another client although aud is ours', () => ({ azp: OTHER_CLIENT })],
      ['without an azp', () => ({ azp: undefined })],
      [
        'whose aud names another client beside ours',
        () => ({ aud: [OTHER_CLIENT, google.clientId], azp: google.clientId }),
      ],
    ])('refuses an ID token %s', async (_case, claims) => {
      const email = `id-${Math.random().toString(36).slice(2)}@example.com`;
      const credential = await google.signIdToken({ email, ...claims() });
      await expectRefused({ credential }, email);
    });

    it('signs in with an access token issued to our client', async () => {
      const token = google.issueAccessToken({ email: 'ours-access@example.com' });
      expect((await signIn({ token })).statusCode).toBe(200);
    });

    it.each([
      ['whose azp is another client although aud is ours', () => ({ azp: OTHER_CLIENT })],
      [
        'whose aud is another client although azp is ours',
        () => ({ aud: OTHER_CLIENT, azp: google.clientId }),
      ],
    ])('refuses an access token %s', async (_case, parties) => {
      const email = `access-${Math.random().toString(36).slice(2)}@example.com`;
      const token = google.issueAccessToken({ email }, { aud: google.clientId, ...parties() });
      await expectRefused({ token }, email);
    });
  });
});
