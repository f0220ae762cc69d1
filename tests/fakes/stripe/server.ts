/**
 * The Stripe fake's HTTP server: authentication, the form body, idempotency keys and request
 * ids, Stripe's error envelope, and the hosted checkout page; the API itself is in router.ts.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { renderPortalPage } from './billing-portal.ts';
import { renderHostedPage } from './checkout-sessions.ts';
import { ApiError } from './errors.ts';
import { parseForm } from './form.ts';
import { newId } from './ids.ts';
import { readBody } from '../http.ts';
import { route } from './router.ts';
import type { RequestContext, StripeStore } from './state.ts';
import type { StripeFakeRequest } from './types.ts';

/** The server for one store; it starts listening in `startStripeFake`. */
export function createStripeServer(store: StripeStore): Server {
  return createServer((req, res) => {
    handle(store, req, res).catch((err: unknown) => {
      // A crash in the fake is a bug in the fake: answer like a Stripe outage and keep serving.
      console.error('stripe fake crashed:', err);
      if (!res.headersSent) {
        send(res, 500, JSON.stringify({ error: { type: 'api_error', message: String(err) } }), {});
      }
    });
  });
}

async function handle(
  store: StripeStore,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const rawBody = await readBody(req);
  const target = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';
  const path = target.pathname;

  const hosted = /^\/c\/pay\/([^/]+)$/.exec(path);
  if (hosted && method === 'GET')
    return renderHostedPage(store, decodeURIComponent(hosted[1] ?? ''), res);
  if (path.startsWith('/p/session/') && method === 'GET') return renderPortalPage(store, path, res);

  const requestId = newId('req', 14);
  const idempotencyKey = header(req, 'idempotency-key');
  const stripeVersion = header(req, 'stripe-version');
  const headers: Record<string, string> = {
    'request-id': requestId,
    'stripe-version': stripeVersion ?? store.apiVersion,
    'access-control-allow-origin': '*',
  };
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;

  const rawParams = method === 'POST' ? rawBody : target.search.slice(1);
  const record: StripeFakeRequest = { method, path, body: {}, idempotencyKey, stripeVersion };
  store.requests.push(record);
  try {
    record.body = parseForm(rawParams);
  } catch {
    // Unparseable bodies are answered below, after authentication, as Stripe orders it.
  }

  try {
    authenticate(store, req);
    const params = parseForm(rawParams);

    if (idempotencyKey && method === 'POST') {
      const previous = store.idempotency.get(idempotencyKey);
      if (previous) {
        if (previous.method !== method || previous.path !== path || previous.rawBody !== rawBody) {
          throw new ApiError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          });
        }
        return send(res, previous.status, previous.body, {
          ...headers,
          'idempotent-replayed': 'true',
        });
      }
    }

    const ctx: RequestContext = { requestId, idempotencyKey };
    const body = JSON.stringify(route(store, method, path, params, ctx), null, 2);
    if (idempotencyKey && method === 'POST') {
      store.idempotency.set(idempotencyKey, { method, path, rawBody, status: 200, body });
    }
    send(res, 200, body, headers);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const body = JSON.stringify(
      { error: { ...err.body, request_log_url: `${store.url}/logs/${requestId}` } },
      null,
      2,
    );
    // Failed validation is not saved under the idempotency key (Stripe only saves results of
    // requests that began executing), so a corrected retry with the same key goes through.
    if (err.status === 401) headers['www-authenticate'] = 'Basic realm="Stripe"';
    send(res, err.status, body, headers);
  }
}

function authenticate(store: StripeStore, req: IncomingMessage): void {
  const header = req.headers.authorization;
  if (!header) {
    throw new ApiError(401, {
      type: 'invalid_request_error',
      message:
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    });
  }
  let key = '';
  const bearer = /^Bearer (.*)$/i.exec(header);
  if (bearer) key = bearer[1] ?? '';
  // curl -u sk_...: is Basic auth with the key as the user name; Stripe accepts it too.
  const basic = /^Basic (.*)$/i.exec(header);
  if (basic)
    key =
      Buffer.from(basic[1] ?? '', 'base64')
        .toString()
        .split(':')[0] ?? '';
  if (key !== store.secretKey) {
    throw new ApiError(401, {
      type: 'invalid_request_error',
      message: `Invalid API Key provided: ${maskKey(key)}`,
    });
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string>,
): void {
  res.statusCode = status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

/** Stripe's 401 message shows the key's prefix and last four characters only. */
function maskKey(key: string): string {
  if (key.length <= 12) return key.replace(/./g, '*');
  return `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`;
}

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' ? v : null;
}
