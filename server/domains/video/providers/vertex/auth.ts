/**
 * OAuth access tokens for Vertex AI, from a service-account key through google-auth-library.
 *
 * With a key (file or object) we build the library's `JWT` client ourselves rather than pass
 * `keyFile` / `credentials` to `GoogleAuth`: in google-auth-library 11 both options are
 * deprecated and print a warning on every construction, and the docs ask callers to check an
 * external credential's type before use, which we do. Without a key, `GoogleAuth` finds
 * Application Default Credentials (the metadata server on Cloud Run / GCE, gcloud locally).
 * Either client caches the token and refreshes it before it expires.
 *
 * The key's `token_uri` is honoured, as Google's Python library does for Private Service Connect
 * endpoints: google-auth-library 11.3.4 always posts the JWT exchange to
 * https://oauth2.googleapis.com/token (constant in build/src/gtoken/getToken.js; `JWT.fromJSON`
 * ignores `token_uri`), so the client's transport sends that one URL to the key's endpoint
 * instead. The assertion's `aud` stays Google's token URL, which is what Google requires even
 * behind a private endpoint. Tests rely on this: their fake key names a local token endpoint.
 */
import { readFile } from 'node:fs/promises';
// google-auth-library is loaded on the first token request (import() below), not at start-up:
// config reads every provider's descriptor, and the library alone costs ~200 ms to load.
import type { JWT } from 'google-auth-library';
import { VideoProviderError } from '../errors.ts';
import { describeError } from '../http.ts';

const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Where the library sends the JWT exchange, and the `aud` of its assertion. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export interface TokenSettings {
  /** A service-account key JSON file (GOOGLE_APPLICATION_CREDENTIALS). */
  keyFile?: string;
  /** The same key, already parsed; wins over keyFile. */
  credentials?: Record<string, unknown>;
  fetchImpl?: typeof fetch;
  /** Time limit of one token request (the library retries 429/5xx itself). */
  timeoutMs?: number;
}

interface AccessTokenClient {
  getAccessToken(): Promise<{ token?: string | null }>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const refused = (message: string, cause?: unknown) =>
  new VideoProviderError(`Vertex AI credentials: ${message}`, { kind: 'rejected', cause });

/** The key's token endpoint; plain http only to this machine (tests), never over a network. */
function tokenUrlOf(value: unknown): string {
  if (value === undefined || value === null || value === '') return GOOGLE_TOKEN_URL;
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw refused('the key\'s "token_uri" is not a URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw refused('the key\'s "token_uri" must be https');
  }
  return url.href;
}

function requestUrl(input: Parameters<typeof fetch>[0]): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

async function serviceAccountClient(
  key: Record<string, unknown>,
  settings: TokenSettings,
): Promise<JWT> {
  if (key.type !== 'service_account') {
    throw refused(`expected a service-account key, got type "${String(key.type)}"`);
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    throw refused('the key lacks client_email or private_key');
  }
  const tokenUrl = tokenUrlOf(key.token_uri);
  const fetchImpl = settings.fetchImpl ?? fetch;
  const { JWT } = await import('google-auth-library');
  return new JWT({
    email: key.client_email,
    key: key.private_key,
    keyId: typeof key.private_key_id === 'string' ? key.private_key_id : undefined,
    scopes: [CLOUD_PLATFORM_SCOPE],
    transporterOptions: {
      timeout: settings.timeoutMs ?? 30_000,
      // Only the token exchange goes through this client, so only Google's token URL is mapped.
      fetchImplementation: (input, init) =>
        fetchImpl(requestUrl(input) === GOOGLE_TOKEN_URL ? tokenUrl : input, init),
    },
  });
}

async function readKey(settings: TokenSettings): Promise<Record<string, unknown>> {
  if (settings.credentials) return settings.credentials;
  const path = settings.keyFile ?? '';
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw refused(`cannot read the key file ${path} (${describeError(err)})`, err);
  }
  try {
    const key: unknown = JSON.parse(text);
    if (typeof key === 'object' && key !== null && !Array.isArray(key)) {
      return key as Record<string, unknown>;
    }
  } catch (err) {
    throw refused(`the key file ${path} is not JSON`, err);
  }
  throw refused(`the key file ${path} does not hold a JSON object`);
}

/** A failed token request as the worker needs it: a bad key is final, an outage is not. */
function tokenError(err: unknown): VideoProviderError {
  if (err instanceof VideoProviderError) return err;
  const status = (err as { status?: unknown }).status;
  const kind =
    typeof status !== 'number' || status >= 500
      ? 'unavailable'
      : status === 429
        ? 'rate_limited'
        : 'rejected';
  // The library's message is Google's `error: error_description` ("invalid_grant: Invalid JWT
  // Signature."); it never contains the assertion or a token.
  return new VideoProviderError(`Vertex AI token request failed: ${describeError(err)}`, {
    kind,
    status: typeof status === 'number' ? status : null,
    cause: err,
  });
}

/** Access tokens for one adapter: one client, so one token is shared by all its calls. */
export function createTokenSource(settings: TokenSettings): { token(): Promise<string> } {
  let client: Promise<AccessTokenClient> | null = null;

  async function makeClient(): Promise<AccessTokenClient> {
    if (!settings.credentials && !settings.keyFile) {
      const { GoogleAuth } = await import('google-auth-library');
      const auth = new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE] });
      return { getAccessToken: async () => ({ token: await auth.getAccessToken() }) };
    }
    return serviceAccountClient(await readKey(settings), settings);
  }

  return {
    async token() {
      client ??= makeClient();
      let current: AccessTokenClient;
      try {
        current = await client;
      } catch (err) {
        // A key that could not be read may be fixed (mounted) later: try again next call.
        client = null;
        throw tokenError(err);
      }
      let token: string | null | undefined;
      try {
        ({ token } = await current.getAccessToken());
      } catch (err) {
        throw tokenError(err);
      }
      if (!token) throw tokenError(new Error('the token endpoint returned no access token'));
      return token;
    },
  };
}
