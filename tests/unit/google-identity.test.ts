import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../server/config.ts';
import {
  createGoogleIdentity,
  GoogleIdentityError,
} from '../../server/domains/accounts/google-identity.ts';
import type { GoogleIdentity } from '../../server/domains/accounts/google-identity.ts';
import { startGoogleFake } from '../fakes/google.ts';
import type { FakeIdTokenClaims, GoogleFake } from '../fakes/google.ts';

let google: GoogleFake;
let identity: GoogleIdentity;

function configFor(fake: GoogleFake, clientId: string | null = fake.clientId): Config['google'] {
  return {
    clientId,
    jwksUrl: fake.jwksUrl,
    tokeninfoUrl: fake.tokeninfoUrl,
    userinfoUrl: fake.userinfoUrl,
  };
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<GoogleIdentityError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GoogleIdentityError);
  expect((err as GoogleIdentityError).code).toBe(code);
  return err as GoogleIdentityError;
}

beforeAll(async () => {
  google = await startGoogleFake();
  identity = createGoogleIdentity(configFor(google));
});

afterAll(async () => {
  await google.close();
});

beforeEach(() => {
  google.setOutage(null);
});

describe('verifyIdToken', () => {
  it('returns the profile of a valid Google ID token', async () => {
    const credential = await google.signIdToken({
      sub: '109876543210987654321',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      picture: 'https://lh3.googleusercontent.com/a/ada',
    });

    await expect(identity.verifyIdToken(credential)).resolves.toEqual({
      sub: '109876543210987654321',
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      picture: 'https://lh3.googleusercontent.com/a/ada',
    });
  });

  it.each<[string, Partial<FakeIdTokenClaims>]>([
    ['the bare accounts.google.com issuer', { iss: 'accounts.google.com' }],
    ['email_verified sent as the string "true"', { email_verified: 'true' }],
    ['an expiry within the clock tolerance', { exp: Math.floor(Date.now() / 1000) - 2 }],
  ])('accepts a token with %s', async (_case, claims) => {
    const credential = await google.signIdToken(claims);
    await expect(identity.verifyIdToken(credential)).resolves.toMatchObject({
      emailVerified: true,
    });
  });

  it('returns null name and picture when Google omits them', async () => {
    const credential = await google.signIdToken({ name: undefined, picture: undefined });
    await expect(identity.verifyIdToken(credential)).resolves.toMatchObject({
      name: null,
      picture: null,
    });
  });

  const past = Math.floor(Date.now() / 1000) - 3600;
  it.each<[string, Partial<FakeIdTokenClaims>, { signWithForeignKey?: boolean }, string]>([
    [
      'rejects an ID token issued for another client',
      { aud: 'someone-else.apps.googleusercontent.com' },
      {},
      'GOOGLE_AUDIENCE_MISMATCH',
    ],
    [
      'rejects an ID token whose authorized party (azp) is another client',
      { azp: 'someone-else.apps.googleusercontent.com' },
      {},
      'GOOGLE_AUDIENCE_MISMATCH',
    ],
    [
      'rejects an ID token from an issuer other than Google',
      { iss: 'https://evil.example.com' },
      {},
      'GOOGLE_TOKEN_INVALID',
    ],
    ['rejects an expired ID token', { iat: past - 3600, exp: past }, {}, 'GOOGLE_TOKEN_EXPIRED'],
    [
      'rejects an ID token signed by a key Google does not publish',
      {},
      { signWithForeignKey: true },
      'GOOGLE_TOKEN_INVALID',
    ],
    [
      'rejects an ID token whose email is not verified',
      { email_verified: false },
      {},
      'GOOGLE_EMAIL_UNVERIFIED',
    ],
    ['rejects an ID token without an email', { email: undefined }, {}, 'GOOGLE_TOKEN_INVALID'],
  ])('%s', async (_name, claims, signOpts, code) => {
    const credential = await google.signIdToken(claims, signOpts);
    await expectCode(identity.verifyIdToken(credential), code);
  });

  it('rejects a credential that is not a JWT', async () => {
    await expectCode(identity.verifyIdToken('not-a-jwt'), 'GOOGLE_TOKEN_INVALID');
  });

  it('tells the person to sign in again when the token has expired', async () => {
    const credential = await google.signIdToken({ iat: past - 3600, exp: past });
    const err = await expectCode(identity.verifyIdToken(credential), 'GOOGLE_TOKEN_EXPIRED');
    expect(err.message).toBe('Google sign-in failed: the token has expired. Please sign in again.');
  });

  it("fetches Google's keys once and reuses them for later sign-ins", async () => {
    const fresh = createGoogleIdentity(configFor(google));
    const before = google.requests.filter((r) => r === 'GET /oauth2/v3/certs').length;
    await fresh.verifyIdToken(await google.signIdToken());
    await fresh.verifyIdToken(await google.signIdToken());
    const after = google.requests.filter((r) => r === 'GET /oauth2/v3/certs').length;
    expect(after - before).toBe(1);
  });
});

describe('verifyAccessToken', () => {
  it('returns the userinfo profile of a valid access token', async () => {
    const token = google.issueAccessToken({
      sub: '101010101010101010101',
      email: 'grace@example.com',
      name: 'Grace Hopper',
      picture: 'https://lh3.googleusercontent.com/a/grace',
    });

    await expect(identity.verifyAccessToken(token)).resolves.toEqual({
      sub: '101010101010101010101',
      email: 'grace@example.com',
      emailVerified: true,
      name: 'Grace Hopper',
      picture: 'https://lh3.googleusercontent.com/a/grace',
    });
  });

  it.each([
    ['aud is another client although azp is ours', { aud: 'other.apps.example', azp: 'ours' }],
    ['azp is another client although aud is ours', { aud: 'ours', azp: 'other.apps.example' }],
  ])('rejects a token whose %s (issue 34, finding 8)', async (_case, parties) => {
    const ours = (value: string) => (value === 'ours' ? google.clientId : value);
    const token = google.issueAccessToken({}, { aud: ours(parties.aud), azp: ours(parties.azp) });
    await expectCode(identity.verifyAccessToken(token), 'GOOGLE_AUDIENCE_MISMATCH');
  });

  it.each<[string, () => string, string]>([
    [
      'rejects an access token issued for another client',
      () => google.issueAccessToken({}, { aud: 'someone-else.apps.googleusercontent.com' }),
      'GOOGLE_AUDIENCE_MISMATCH',
    ],
    ['rejects an access token Google does not know', () => 'ya29.unknown', 'GOOGLE_TOKEN_INVALID'],
    ['rejects an empty access token', () => '', 'GOOGLE_TOKEN_INVALID'],
    [
      'rejects an access token with no time left',
      () => google.issueAccessToken({ expires_in: 0 }),
      'GOOGLE_TOKEN_EXPIRED',
    ],
    [
      'rejects an access token whose email is not verified',
      () => google.issueAccessToken({ email_verified: false }),
      'GOOGLE_EMAIL_UNVERIFIED',
    ],
  ])('%s', async (_name, issue, code) => {
    await expectCode(identity.verifyAccessToken(issue()), code);
  });

  it('does not call userinfo for a token issued for another client', async () => {
    const token = google.issueAccessToken({}, { aud: 'someone-else.apps.googleusercontent.com' });
    const before = google.requests.length;
    await expectCode(identity.verifyAccessToken(token), 'GOOGLE_AUDIENCE_MISMATCH');
    expect(google.requests.slice(before)).toEqual(['GET /tokeninfo']);
  });
});

describe('when Google sign-in is not configured', () => {
  it.each(['verifyIdToken', 'verifyAccessToken'] as const)(
    '%s refuses without calling Google',
    async (method) => {
      const unconfigured = createGoogleIdentity(configFor(google, null));
      const before = google.requests.length;
      await expectCode(unconfigured[method]('anything'), 'GOOGLE_NOT_CONFIGURED');
      expect(google.requests.length).toBe(before);
    },
  );
});

describe('when Google cannot be reached', () => {
  let unreachable: GoogleIdentity;

  beforeAll(async () => {
    // A fake that has been closed leaves a port on which nothing listens.
    const gone = await startGoogleFake({ clientId: google.clientId });
    await gone.close();
    unreachable = createGoogleIdentity(configFor(gone));
  });

  it('reports an ID token check as unavailable, not as a bad token', async () => {
    const credential = await google.signIdToken();
    await expectCode(unreachable.verifyIdToken(credential), 'GOOGLE_UNAVAILABLE');
  });

  it('reports an access token check as unavailable, not as a bad token', async () => {
    await expectCode(
      unreachable.verifyAccessToken(google.issueAccessToken()),
      'GOOGLE_UNAVAILABLE',
    );
  });

  it.each(['verifyIdToken', 'verifyAccessToken'] as const)(
    'reports %s as unavailable when Google answers 503',
    async (method) => {
      const fresh = createGoogleIdentity(configFor(google));
      const credential =
        method === 'verifyIdToken' ? await google.signIdToken() : google.issueAccessToken();
      google.setOutage(503);
      const err = await expectCode(fresh[method](credential), 'GOOGLE_UNAVAILABLE');
      expect(err.message).toBe(
        'Google sign-in is unavailable right now. Please try again in a minute.',
      );
    },
  );
});
