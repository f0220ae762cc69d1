/**
 * The frame of every /v1 answer (issue 36, item 2), as hooks on the scope the /v1 routes are
 * registered in after it:
 * - `x-request-id` on every answer: the request's id, the `reqId` of its access-log line (a
 *   client's own x-request-id is not echoed: ours is what the logs are searched by);
 * - `Authorization: Bearer vs_live_…` is the only credential: cookies, session tokens and
 *   x-user-id are not read. The key is checked before the route's own hooks (core/access.ts's
 *   'api-key' guard), then the route's `scope`, then the key's request budget (v1-limits.ts);
 * - errors as `{ error: { code, message, param? } }` (v1-errors.ts), an unknown address under
 *   /v1 included (404 NOT_FOUND, never a site page; no key needed to learn it does not exist);
 * - `api_requests_total{key_class, status}` on /metrics (api-metrics.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError, unauthorized } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import { API_KEY_PREFIX, type ApiScope } from '../../../shared/public-api.ts';
import { apiRequestMetrics } from './api-metrics.ts';
import type { ApiKeyService } from './keys-service.ts';
import { v1ErrorHandler, v1NotFound } from './v1-errors.ts';
import { keyRateLimiter } from './v1-limits.ts';

/** `Authorization: Bearer <token>`, or null. */
function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  return /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null;
}

export async function v1Frame(
  scope: FastifyInstance,
  opts: { apiKeys: ApiKeyService; config: Config },
) {
  const { apiKeys } = opts;
  const metrics = apiRequestMetrics(scope.metrics);
  const countRequest = keyRateLimiter(scope);

  const authenticate = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized(msg('access.api_key_required'), 'API_KEY_REQUIRED');
    if (!token.startsWith(API_KEY_PREFIX)) {
      throw unauthorized(msg('v1.session_token'), 'API_KEY_INVALID');
    }
    const found = apiKeys.cached(token) ?? (await apiKeys.authenticate(token));
    if ('error' in found) {
      throw found.error === 'revoked'
        ? unauthorized(msg('v1.key_revoked'), 'API_KEY_REVOKED')
        : unauthorized(msg('v1.key_invalid'), 'API_KEY_INVALID');
    }
    request.apiKey = found.key;
    request.user = found.user;
  };

  /** An 'api-key' route's first hook: the key, then the route's scope, then the budget. */
  const frameOf = (needed: ApiScope | undefined) =>
    async function keyFrame(request: FastifyRequest, reply: FastifyReply) {
      reply.header('x-request-id', request.id);
      await authenticate(request);
      const key = request.apiKey!;
      if (needed && !key.scopes.includes(needed)) {
        throw new AppError(
          403,
          'API_KEY_SCOPE_MISSING',
          msg('v1.scope_missing', { scope: needed, scopes: key.scopes.join(', ') }),
        );
      }
      await countRequest(request, reply);
    };
  const requestIdOnly: onRequestHookHandler = (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  };
  // Each route's own first hook, made when it is registered (so before the access guard that
  // core/access.ts added): it knows the route's access and scope, which reading them per request
  // (request.routeOptions) would build a new object for every time.
  scope.addHook('onRoute', (route) => {
    const frame = route.config?.access === 'api-key' ? frameOf(route.config.scope) : requestIdOnly;
    route.onRequest = [frame, ...[route.onRequest ?? []].flat()];
  });

  scope.addHook('onResponse', (request, reply, done) => {
    metrics.count(request, reply.statusCode);
    done();
  });

  scope.setErrorHandler(v1ErrorHandler);

  // The app's not-found handler answers in the site's shape (or with a page): every other
  // address under /v1 is refused here, in /v1's, before its body is read. The router prefers
  // any registered /v1 route to these.
  const notFound = {
    config: { access: 'public' as const },
    schema: { hide: true },
    onRequest: async (request: FastifyRequest) => {
      throw v1NotFound(request);
    },
  };
  const unreachable = async () => undefined;
  scope.all('/v1', notFound, unreachable);
  scope.all('/v1/*', notFound, unreachable);
}
