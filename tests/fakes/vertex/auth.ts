/**
 * The fake's Google OAuth side: a real service-account key (an RSA key made with node:crypto,
 * written as Google's key JSON with `token_uri` pointing here), the JWT-bearer token endpoint
 * that verifies the RS256 assertion with the public key, and the bearer check the API and
 * storage servers apply.
 */
import { createPublicKey, generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { googleError } from './errors.ts';
import type { Send, VertexState } from './types.ts';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The audience Google requires in the assertion, whatever endpoint receives it. */
const GOOGLE_TOKEN_AUD = 'https://oauth2.googleapis.com/token';
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';

/** Makes a key pair and writes the key file; returns its path and the public key. */
export async function writeServiceAccountKey(
  dir: string,
  opts: { project: string; clientEmail: string; tokenUrl: string },
) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyId = randomBytes(20).toString('hex');
  const path = join(dir, 'service-account.json');
  const key = {
    type: 'service_account',
    project_id: opts.project,
    private_key_id: keyId,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: opts.clientEmail,
    client_id: Array.from(randomBytes(21), (b) => b % 10).join(''),
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: opts.tokenUrl,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(opts.clientEmail)}`,
    universe_domain: 'googleapis.com',
  };
  await writeFile(path, `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600 });
  return { path, publicKey: createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })) };
}

const oauthError = (send: Send, error: string, description: string) =>
  send(400, { error, error_description: description });

function decodePart(part: string | undefined): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `POST /token` (form-encoded): checks the assertion as Google does, issues an access token. */
export function handleToken(state: VertexState, raw: string, send: Send): void {
  const form = new URLSearchParams(raw);
  const grantType = form.get('grant_type');
  if (grantType !== JWT_BEARER) {
    return oauthError(send, 'unsupported_grant_type', `Invalid grant_type: ${grantType ?? ''}`);
  }
  const [head, body, signature] = (form.get('assertion') ?? '').split('.');
  const header = decodePart(head);
  const claims = decodePart(body);
  if (!header || !claims || !signature) {
    return oauthError(send, 'invalid_grant', 'Invalid JWT: malformed assertion.');
  }
  if (header.alg !== 'RS256') {
    return oauthError(send, 'invalid_grant', 'Invalid JWT: unsupported signing algorithm.');
  }
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    state.publicKey,
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return oauthError(send, 'invalid_grant', 'Invalid JWT Signature.');
  if (claims.iss !== state.fake.clientEmail) {
    return oauthError(send, 'invalid_grant', 'Invalid grant: account not found');
  }
  if (claims.aud !== GOOGLE_TOKEN_AUD) {
    return oauthError(send, 'invalid_grant', 'Invalid JWT: Failed audience check.');
  }
  const now = Math.floor(Date.now() / 1000);
  const { iat, exp } = claims;
  if (
    typeof iat !== 'number' ||
    typeof exp !== 'number' ||
    iat > now + 60 ||
    exp <= now ||
    exp - iat > 3600
  ) {
    return oauthError(
      send,
      'invalid_grant',
      'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
    );
  }
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  if (!scopes.includes(CLOUD_PLATFORM)) {
    return oauthError(send, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
  }
  const token = `ya29.fake-${randomBytes(24).toString('base64url')}`;
  state.tokens.add(token);
  state.fake.issuedTokens.push(token);
  return send(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
}

/** The bearer token of a request if the token endpoint issued it, else null. */
export function bearerOf(state: VertexState, req: IncomingMessage): string | null {
  const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  return match && state.tokens.has(match[1] ?? '') ? (match[1] ?? null) : null;
}

/** Google's answer to a request without a valid token. */
export const unauthenticated = (send: Send) =>
  send(
    401,
    googleError(
      401,
      'UNAUTHENTICATED',
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    ),
    { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' },
  );
