/**
 * Google identity provider: turns a Google ID token (GIS credential) or an OAuth access token into
 * a verified profile. Pure: no Fastify, no database; the accounts service decides what a profile
 * means for users and sessions. jose is imported with the first ID token: a start without Google
 * sign-in never loads it.
 */
import type * as Jose from 'jose';
import type { Config } from '../../config.ts';
import { msg, type ApiText } from '../../core/api-messages.ts';

/** The verified facts about a Google account that sign-in relies on. */
export interface GoogleProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

/** Stable reasons a Google credential is refused; routes map them to HTTP statuses. */
export type GoogleIdentityErrorCode =
  | 'GOOGLE_TOKEN_INVALID'
  | 'GOOGLE_TOKEN_EXPIRED'
  | 'GOOGLE_AUDIENCE_MISMATCH'
  | 'GOOGLE_EMAIL_UNVERIFIED'
  | 'GOOGLE_UNAVAILABLE'
  | 'GOOGLE_NOT_CONFIGURED';

const MESSAGES: Record<GoogleIdentityErrorCode, ApiText> = {
  GOOGLE_TOKEN_INVALID: msg('google.token_invalid'),
  GOOGLE_TOKEN_EXPIRED: msg('google.token_expired'),
  GOOGLE_AUDIENCE_MISMATCH: msg('google.audience_mismatch'),
  GOOGLE_EMAIL_UNVERIFIED: msg('google.email_unverified'),
  GOOGLE_UNAVAILABLE: msg('google.unavailable'),
  GOOGLE_NOT_CONFIGURED: msg('google.not_configured'),
};

/** A refused Google credential, with a stable `code` and a message a person can act on. */
export class GoogleIdentityError extends Error {
  override name = 'GoogleIdentityError';
  readonly code: GoogleIdentityErrorCode;
  /** The sentence for the person signing in (`message` is its English, for logs). */
  readonly text: ApiText;

  constructor(code: GoogleIdentityErrorCode, text?: ApiText, options?: { cause?: unknown }) {
    const sentence = text ?? MESSAGES[code];
    super(sentence.render('en'), options);
    this.code = code;
    this.text = sentence;
  }
}

/** Verifies Google credentials against the configured endpoints. */
export interface GoogleIdentity {
  /** Verifies a GIS ID token (a JWT signed by Google) and returns its profile. */
  verifyIdToken(credential: string): Promise<GoogleProfile>;
  /** Verifies an OAuth access token via tokeninfo + userinfo and returns its profile. */
  verifyAccessToken(token: string): Promise<GoogleProfile>;
}

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];
const HTTP_TIMEOUT_MS = 5000;
// Small allowance for clock skew between us and Google; tokens live an hour, so 5 s costs nothing.
const CLOCK_TOLERANCE_S = 5;

/** Creates a Google identity verifier; the JWKS is fetched lazily and cached per instance. */
export function createGoogleIdentity(
  google: Config['google'],
  fetchImpl: typeof fetch = fetch,
): GoogleIdentity {
  const jwksUrl = new URL(google.jwksUrl);
  // One key set per instance so Google's keys are cached across sign-ins (jose honours cooldowns).
  const loadKeys = async () => {
    const jose = await import('jose');
    const jwks = jose.createRemoteJWKSet(jwksUrl, {
      timeoutDuration: HTTP_TIMEOUT_MS,
      [jose.customFetch]: (url, init) => fetchImpl(url, init),
    });
    return { jose, jwks };
  };
  let keys: ReturnType<typeof loadKeys> | null = null;

  function requireClientId(): string {
    if (!google.clientId) throw new GoogleIdentityError('GOOGLE_NOT_CONFIGURED');
    return google.clientId;
  }

  async function verifyIdToken(credential: string): Promise<GoogleProfile> {
    const clientId = requireClientId();
    const { jose, jwks } = await (keys ??= loadKeys());
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(credential, jwks, {
        algorithms: ['RS256'],
        issuer: GOOGLE_ISSUERS,
        audience: clientId,
        clockTolerance: CLOCK_TOLERANCE_S,
      }));
    } catch (err) {
      throw fromJoseError(err, jose.errors);
    }
    assertIssuedToUs(payload, clientId);
    return profileFromClaims(payload, { requireSub: true });
  }

  async function verifyAccessToken(token: string): Promise<GoogleProfile> {
    const clientId = requireClientId();
    if (!token) throw new GoogleIdentityError('GOOGLE_TOKEN_INVALID');

    const tokeninfoUrl = new URL(google.tokeninfoUrl);
    tokeninfoUrl.searchParams.set('access_token', token);
    const info = await getJson(fetchImpl, tokeninfoUrl, {});
    // Google answers 400 invalid_token for unknown, revoked and expired tokens alike.
    if (!info) throw new GoogleIdentityError('GOOGLE_TOKEN_INVALID');

    // An access token minted for another client must never sign anyone in here (token substitution).
    assertIssuedToUs(info, clientId);
    if (!(Number(info.expires_in) > 0)) throw new GoogleIdentityError('GOOGLE_TOKEN_EXPIRED');

    const user = await getJson(fetchImpl, new URL(google.userinfoUrl), {
      authorization: `Bearer ${token}`,
    });
    if (!user) throw new GoogleIdentityError('GOOGLE_TOKEN_INVALID');
    if (typeof info.sub === 'string' && info.sub !== user.sub) {
      throw new GoogleIdentityError('GOOGLE_TOKEN_INVALID');
    }
    return profileFromClaims(user, { requireSub: true });
  }

  return { verifyIdToken, verifyAccessToken };
}

/**
 * Refuses a token Google issued to another client (issue 34, finding 8): its authorized party
 * (`azp`, the client the person signed in to) must be ours, and so must every audience (`aud`)
 * it names. Either one alone was enough before: another site's client, with our id as an extra
 * audience, could sign its users in here.
 */
function assertIssuedToUs(claims: Record<string, unknown>, clientId: string): void {
  const { aud, azp } = claims;
  const audiences: unknown[] = aud === undefined ? [] : Array.isArray(aud) ? aud : [aud];
  if (azp !== clientId || audiences.some((audience) => audience !== clientId)) {
    throw new GoogleIdentityError('GOOGLE_AUDIENCE_MISMATCH');
  }
}

/**
 * GETs a Google JSON endpoint. Returns null when Google says the credential is bad (4xx), and
 * throws GOOGLE_UNAVAILABLE for anything that is Google's or the network's fault.
 */
async function getJson(
  fetchImpl: typeof fetch,
  url: URL,
  headers: Record<string, string>,
): Promise<Record<string, unknown> | null> {
  let res: Response;
  try {
    res = await fetchImpl(url, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new GoogleIdentityError('GOOGLE_UNAVAILABLE', undefined, { cause });
  }
  if (res.status >= 500 || res.status === 429) {
    await res.body?.cancel();
    throw new GoogleIdentityError('GOOGLE_UNAVAILABLE', undefined, {
      cause: new Error(`${url.origin}${url.pathname} answered ${res.status}`),
    });
  }
  if (!res.ok) {
    await res.body?.cancel();
    return null;
  }
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      return body as Record<string, unknown>;
    }
  } catch (cause) {
    // A truncated or timed-out body is a transport problem, not a bad credential.
    throw new GoogleIdentityError('GOOGLE_UNAVAILABLE', undefined, { cause });
  }
  throw new GoogleIdentityError('GOOGLE_UNAVAILABLE', undefined, {
    cause: new Error(`${url.origin}${url.pathname} did not answer a JSON object`),
  });
}

/** Builds a profile from ID-token claims or a userinfo body; both use the same OIDC names. */
function profileFromClaims(
  claims: Record<string, unknown>,
  { requireSub }: { requireSub: boolean },
): GoogleProfile {
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  if (requireSub && !sub) throw new GoogleIdentityError('GOOGLE_TOKEN_INVALID');
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email) {
    throw new GoogleIdentityError('GOOGLE_TOKEN_INVALID', msg('google.email_not_shared'));
  }
  // Google sends a boolean in ID tokens and userinfo, but the string "true" from tokeninfo.
  const emailVerified = claims.email_verified === true || claims.email_verified === 'true';
  if (!emailVerified) throw new GoogleIdentityError('GOOGLE_EMAIL_UNVERIFIED');
  return {
    sub,
    email,
    emailVerified,
    name: typeof claims.name === 'string' && claims.name ? claims.name : null,
    picture: typeof claims.picture === 'string' && claims.picture ? claims.picture : null,
  };
}

/** Maps jose's verification errors to our codes; anything outside jose is a transport failure. */
function fromJoseError(err: unknown, joseErrors: typeof Jose.errors): GoogleIdentityError {
  if (err instanceof GoogleIdentityError) return err;
  const cause = { cause: err };
  if (err instanceof joseErrors.JWTExpired) {
    return new GoogleIdentityError('GOOGLE_TOKEN_EXPIRED', undefined, cause);
  }
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') {
      return new GoogleIdentityError('GOOGLE_AUDIENCE_MISMATCH', undefined, cause);
    }
    if (err.claim === 'iss') {
      return new GoogleIdentityError(
        'GOOGLE_TOKEN_INVALID',
        msg('google.token_not_from_google'),
        cause,
      );
    }
    return new GoogleIdentityError('GOOGLE_TOKEN_INVALID', undefined, cause);
  }
  if (
    err instanceof joseErrors.JWKSTimeout ||
    err instanceof joseErrors.JWKSInvalid ||
    err instanceof joseErrors.JWKInvalid
  ) {
    return new GoogleIdentityError('GOOGLE_UNAVAILABLE', undefined, cause);
  }
  if (err instanceof joseErrors.JOSEError) {
    // The plain JOSEError (ERR_JOSE_GENERIC) is what jose throws when the JWKS endpoint answers
    // non-200 or non-JSON; every more specific class means the token itself is bad.
    if (err.code === 'ERR_JOSE_GENERIC') {
      return new GoogleIdentityError('GOOGLE_UNAVAILABLE', undefined, cause);
    }
    return new GoogleIdentityError('GOOGLE_TOKEN_INVALID', undefined, cause);
  }
  // fetch's TypeError ("fetch failed") and abort errors: Google's keys could not be loaded.
  return new GoogleIdentityError('GOOGLE_UNAVAILABLE', undefined, cause);
}
