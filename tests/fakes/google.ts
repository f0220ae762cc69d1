/**
 * A local Google that speaks the real wire format (JWKS, tokeninfo, OIDC userinfo) over real HTTP,
 * so the production adapter in server/domains/accounts/google-identity.ts is what tests exercise.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { closeServer, listen, sendJson } from './http.ts';

/** Claims a test may set on a fake ID token; an explicit `undefined` drops the claim. */
export interface FakeIdTokenClaims {
  sub: string;
  email: string;
  email_verified: boolean | string;
  name: string;
  picture: string;
  /** Our client id by default; a list names several audiences. */
  aud: string | string[];
  /** The client the person signed in to: by default `aud` when that is one client, else ours. */
  azp: string;
  iss: string;
  exp: number;
  iat: number;
}

/** The account behind a fake access token. */
export interface FakeAccessTokenProfile {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  picture: string;
  scope: string;
  /** Seconds left; 0 or less makes tokeninfo report an expired token. */
  expires_in: number;
}

/** A running fake Google; point `Config['google']` at its URLs. */
export interface GoogleFake {
  url: string;
  jwksUrl: string;
  tokeninfoUrl: string;
  userinfoUrl: string;
  clientId: string;
  /** `METHOD /path` of every request received, oldest first (no query, so no tokens). */
  requests: string[];
  /** Signs an RS256 ID token with the served key (or a foreign one with the same kid). */
  signIdToken(
    claims?: Partial<FakeIdTokenClaims>,
    opts?: { signWithForeignKey?: boolean },
  ): Promise<string>;
  /** Registers an opaque access token that tokeninfo and userinfo will recognise. */
  issueAccessToken(
    profile?: Partial<FakeAccessTokenProfile>,
    opts?: { aud?: string; azp?: string },
  ): string;
  /** Makes every endpoint answer this status (e.g. 503) until called again with null. */
  setOutage(status: number | null): void;
  close(): Promise<void>;
}

interface AccessTokenRecord {
  profile: FakeAccessTokenProfile;
  aud: string;
  azp: string;
  issuedAt: number;
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

// Google subjects are opaque numeric strings of about 21 digits.
const randomSub = (): string => `1${Array.from({ length: 20 }, () => randomInt(10)).join('')}`;

/** Starts a fake Google on 127.0.0.1 with a random port. */
export async function startGoogleFake(opts: { clientId?: string } = {}): Promise<GoogleFake> {
  const clientId = opts.clientId ?? `${randomInt(1e9)}-fake.apps.googleusercontent.com`;
  const kid = randomBytes(8).toString('hex');
  const served = await generateKeyPair('RS256');
  // Same kid, different key: the JWKS lookup succeeds but the signature check must fail.
  const foreign = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(served.publicKey)), kid, alg: 'RS256', use: 'sig' };

  const accessTokens = new Map<string, AccessTokenRecord>();
  const requests: string[] = [];
  let outage: number | null = null;
  let userCount = 0;

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${req.method} ${url.pathname}`);
    if (outage !== null) return sendJson(res, outage, { error: 'backend_error' });
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'method_not_allowed' });

    if (url.pathname === '/oauth2/v3/certs') {
      res.setHeader('cache-control', 'public, max-age=21600, must-revalidate, no-transform');
      return sendJson(res, 200, { keys: [publicJwk] });
    }

    if (url.pathname === '/tokeninfo') {
      const record = accessTokens.get(url.searchParams.get('access_token') ?? '');
      if (!record) {
        return sendJson(res, 400, { error: 'invalid_token', error_description: 'Invalid Value' });
      }
      const { profile } = record;
      const exp = record.issuedAt + profile.expires_in;
      // tokeninfo sends every value as a string, including numbers and booleans.
      return sendJson(res, 200, {
        azp: record.azp,
        aud: record.aud,
        sub: profile.sub,
        scope: profile.scope,
        exp: String(exp),
        expires_in: String(Math.max(0, exp - nowSeconds())),
        email: profile.email,
        email_verified: String(profile.email_verified),
        access_type: 'online',
      });
    }

    if (url.pathname === '/v1/userinfo') {
      const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      const record = match?.[1] ? accessTokens.get(match[1]) : undefined;
      if (!record) {
        res.setHeader('www-authenticate', 'Bearer error="invalid_token"');
        return sendJson(res, 401, {
          error: 'invalid_request',
          error_description: 'Invalid Credentials',
        });
      }
      const { profile } = record;
      return sendJson(res, 200, {
        sub: profile.sub,
        name: profile.name,
        given_name: profile.name.split(' ')[0] ?? profile.name,
        picture: profile.picture,
        email: profile.email,
        email_verified: profile.email_verified,
      });
    }

    return sendJson(res, 404, { error: 'not_found' });
  }

  const server = createServer(handle);
  const { url } = await listen(server);

  function nextUser(): { n: number; sub: string } {
    userCount += 1;
    return { n: userCount, sub: randomSub() };
  }

  return {
    url,
    jwksUrl: `${url}/oauth2/v3/certs`,
    tokeninfoUrl: `${url}/tokeninfo`,
    userinfoUrl: `${url}/v1/userinfo`,
    clientId,
    requests,

    async signIdToken(claims = {}, signOpts = {}) {
      const { n, sub } = nextUser();
      const iat = nowSeconds();
      const payload = {
        iss: 'https://accounts.google.com',
        azp: typeof claims.aud === 'string' ? claims.aud : clientId,
        aud: clientId,
        sub,
        email: `user-${n}@example.com`,
        email_verified: true,
        name: `Test User ${n}`,
        picture: `https://lh3.googleusercontent.com/a/fake-${n}=s96-c`,
        iat,
        exp: iat + 3600,
        ...claims,
      };
      const key = signOpts.signWithForeignKey ? foreign.privateKey : served.privateKey;
      // SignJWT serialises with JSON.stringify, so claims set to undefined are dropped.
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
    },

    issueAccessToken(profile = {}, tokenOpts = {}) {
      const { n, sub } = nextUser();
      const token = `ya29.${randomBytes(24).toString('base64url')}`;
      const aud = tokenOpts.aud ?? clientId;
      accessTokens.set(token, {
        aud,
        azp: tokenOpts.azp ?? aud,
        issuedAt: nowSeconds(),
        profile: {
          sub,
          email: `user-${n}@example.com`,
          email_verified: true,
          name: `Test User ${n}`,
          picture: `https://lh3.googleusercontent.com/a/fake-${n}=s96-c`,
          scope:
            'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
          expires_in: 3599,
          ...profile,
        },
      });
      return token;
    },

    setOutage(status) {
      outage = status;
    },

    close: () => closeServer(server),
  };
}
