/**
 * Route access declarations. Every route names who may call it in its options —
 * `config: { access: 'user' }` — and that declaration is the guard: an onRoute hook installs the
 * matching check, so nobody writes (or forgets) a per-route preHandler. A route without a
 * declaration stops the app at startup with the route's method and URL: an undeclared route
 * would otherwise be public by accident.
 *
 * The guard runs as an onRequest hook, after the auth plugin has read the session (core/auth.ts
 * reads it only for routes that look at their caller: these levels, or `readsUser`) and before the
 * body is parsed or validated: a signed-out caller learns nothing about a route's input and
 * cannot make the server read a large body.
 *
 * The same onRoute hook sets each route's body limit before the body is read (preParsing): a
 * Content-Length over it is refused at once with the limit named, and a route that declares a
 * larger `bodyLimit` than the server's (an article) allows it only to a signed-in caller; anyone
 * else keeps the server's limit there, announced or chunked (finding 6 of issue 16).
 */
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { requireAdmin, requireEditor, requireUser } from './auth.ts';
import { AppError, unauthorized } from './errors.ts';
import { type ApiText, msg } from './api-messages.ts';
import type { ApiScope } from '../../shared/public-api.ts';

export const ACCESS_LEVELS = [
  /** Anyone, signed in or not. Per-file or per-row rules may still apply (media, /api/db). */
  'public',
  /** A signed-in user; routes that read someone's resource check ownership themselves. */
  'user',
  /** A signed-in user with the blog-management right (can_manage_blog). */
  'editor',
  /** An administrator session (POST /api/auth/admin-login). */
  'admin',
  /** Stripe's webhook: no session, the handler verifies the signature instead. */
  'webhook',
  /** GET /api/admin/status: no session, the handler checks ?password= instead. */
  'admin-password',
  /** GET /metrics: no session, the handler checks the METRICS_TOKEN bearer instead. */
  'metrics-token',
  /**
   * The public API (/v1, issue 36): a developer's key (`Authorization: Bearer vs_live_…`) with
   * the route's `scope`, checked by the api domain's hook on its /v1 scope, never a session.
   */
  'api-key',
] as const;

export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export interface RouteAccess {
  method: string;
  url: string;
  access: AccessLevel;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route; every route must declare it (server/core/access.ts). */
    access?: AccessLevel;
    /** For `access: 'user'`: the 401 message when the spec names one ('Please login first'). */
    signInMessage?: ApiText;
    /**
     * A public route whose answer depends on who asks (/api/db): its caller's session is read.
     * Without it a public route never looks the session up (core/auth.ts).
     */
    readsUser?: boolean;
    /** For `access: 'api-key'`: the scope the key must hold (shared/public-api.ts API_SCOPES). */
    scope?: ApiScope;
  }
  interface FastifyRequest {
    /**
     * The developer's key of a /v1 request, set by the api domain's hook on its scope (null on
     * every other request); `request.user` is then the key's owner.
     */
    apiKey: RequestApiKey | null;
  }
  interface FastifyInstance {
    /** Every registered route, one row per method, with its declared access level. */
    routeAccess: readonly RouteAccess[];
  }
}

/** What a /v1 key may do: requests a minute and unfinished videos (config defaults, a plan's own). */
export interface KeyLimits {
  requestsPerMinute: number;
  unfinishedVideos: number;
}

/** A /v1 caller's key (issue 36). */
export interface RequestApiKey {
  id: string;
  userId: string;
  scopes: readonly ApiScope[];
  /** Its requests a minute and unfinished videos (its owner's plan may raise the defaults). */
  limits: KeyLimits;
  /** Its class on /metrics: its owner's plan id, or 'default'. */
  keyClass: string;
}

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * An `api-key` route's guard. The api domain's /v1 scope authenticates the key and checks the
 * route's scope before this runs (its hooks come first); this only makes sure an `api-key` route
 * registered anywhere else refuses everyone instead of serving them.
 */
const requireApiKey: Guard = async (request) => {
  if (!request.apiKey) throw unauthorized(msg('access.api_key_required'), 'API_KEY_REQUIRED');
};

function guardFor(level: AccessLevel, signInMessage: ApiText | undefined): Guard | null {
  switch (level) {
    case 'user':
      if (!signInMessage) return requireUser;
      return async (request) => {
        if (!request.user) throw unauthorized(signInMessage, 'SIGN_IN_REQUIRED');
      };
    case 'editor':
      return requireEditor;
    case 'admin':
      return requireAdmin;
    case 'public':
    case 'webhook':
    case 'admin-password':
    case 'metrics-token':
      return null;
    case 'api-key':
      return requireApiKey;
  }
}

/** 65536 → "64 KB", 6065536 → "5.8 MB". */
const formatBytes = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.round(bytes / 1024)} KB`
    : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

const bodyTooLarge = (length: number, limit: number) =>
  new AppError(
    413,
    'BODY_TOO_LARGE',
    msg('access.body_too_large', { size: formatBytes(length), limit: formatBytes(limit) }),
  );
const anonymousBodyTooLarge = (limit: number) =>
  new AppError(
    413,
    'BODY_TOO_LARGE',
    msg('access.anonymous_body_too_large', { limit: formatBytes(limit) }),
  );

/**
 * The preParsing check of a route that reads `limit` bytes (`anonymousLimit` for a caller without
 * a session, when smaller). Multipart bodies are read by the route under their own limits.
 */
function bodyLimitCheck(limit: number, anonymousLimit: number): preParsingHookHandler {
  return (request, reply, payload, done) => {
    if (/^multipart\//i.test(request.headers['content-type'] ?? '')) return done(null, payload);
    const anonymous = !request.user && anonymousLimit < limit;
    const applies = anonymous ? anonymousLimit : limit;
    const length = Number(request.headers['content-length']);
    if (length > applies) {
      // Node reads the rest of a refused body and drops it (cheap, and the client then reads
      // our answer: closing at once resets the connection under a client still sending). A
      // body announced larger than anything a browser overshoots with is not worth reading.
      if (length > DRAIN_AT_MOST) reply.header('connection', 'close');
      return done(anonymous ? anonymousBodyTooLarge(applies) : bodyTooLarge(length, applies));
    }
    // Without a Content-Length (chunked) the parser counts up to the route's own limit; a caller
    // without a session is cut off at the smaller one as the bytes arrive.
    if (!anonymous || length >= 0) return done(null, payload);
    let received = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        received += chunk.length;
        next(received > applies ? anonymousBodyTooLarge(applies) : null, chunk);
      },
    });
    done(null, payload.pipe(capped));
  };
}

const BODYLESS = new Set(['GET', 'HEAD']);
const DRAIN_AT_MOST = 8 * 1024 * 1024;

const isAccessLevel = (value: unknown): value is AccessLevel =>
  (ACCESS_LEVELS as readonly unknown[]).includes(value);

const kScopeAccess = Symbol('veo3.scopeAccess');
type ScopedInstance = FastifyInstance & { [kScopeAccess]?: AccessLevel };

/**
 * Declares `level` for the routes a plugin adds inside `scope` when that plugin takes no route
 * options of ours (@fastify/static, @fastify/swagger-ui). Register such a plugin in its own
 * scope: child instances inherit the declaration, siblings do not.
 */
export function declareScopeAccess(scope: FastifyInstance, level: AccessLevel): void {
  (scope as ScopedInstance)[kScopeAccess] = level;
}

/** Register before any route: routes added earlier are neither checked nor guarded. */
export const accessPlugin = fp(
  async (app: FastifyInstance) => {
    const table: RouteAccess[] = [];
    app.decorate('routeAccess', table);
    app.decorateRequest('apiKey', null);
    const serverLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;
    app.addHook('onRoute', function (route) {
      const declared = route.config?.access ?? (this as ScopedInstance)[kScopeAccess];
      const methods = [route.method].flat();
      if (!isAccessLevel(declared)) {
        // Thrown in every environment: the route tables are the same, so tests catch it first.
        throw new Error(
          `${methods.join(',')} ${route.url} declares no access level. Add ` +
            `config: { access: ${ACCESS_LEVELS.map((l) => `'${l}'`).join(' | ')} } ` +
            'to its route options (server/core/access.ts).',
        );
      }
      route.config = { ...route.config, access: declared };
      const guard = guardFor(declared, route.config.signInMessage);
      // The auth plugin puts its session read in front of it (core/auth.ts).
      if (guard) route.onRequest = [guard, ...[route.onRequest ?? []].flat()];
      // The webhook reads raw bytes under its own parser's limit and checks their signature.
      if (declared !== 'webhook' && methods.some((m) => !BODYLESS.has(m))) {
        const check = bodyLimitCheck(route.bodyLimit ?? serverLimit, serverLimit);
        route.preParsing = [check, ...[route.preParsing ?? []].flat()];
      }
      for (const method of methods) table.push({ method, url: route.url, access: declared });
    });
  },
  { name: 'access' },
);
