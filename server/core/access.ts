/**
 * Route access declarations. Every route names who may call it in its options —
 * `config: { access: 'user' }` — and that declaration is the guard: an onRoute hook installs the
 * matching check, so nobody writes (or forgets) a per-route preHandler. A route without a
 * declaration stops the app at startup with the route's method and URL: an undeclared route
 * would otherwise be public by accident.
 *
 * The guard runs as an onRequest hook, after the auth plugin has read the session and before the
 * body is parsed or validated: a signed-out caller learns nothing about a route's input and
 * cannot make the server read a large body.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { requireAdmin, requireEditor, requireUser } from './auth.ts';
import { unauthorized } from './errors.ts';

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
    signInMessage?: string;
  }
  interface FastifyInstance {
    /** Every registered route, one row per method, with its declared access level. */
    routeAccess: readonly RouteAccess[];
  }
}

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

function guardFor(level: AccessLevel, signInMessage: string | undefined): Guard | null {
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
      return null;
  }
}

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
      // Route-level onRequest hooks run after the instance's, so the session is already read.
      if (guard) route.onRequest = [guard, ...[route.onRequest ?? []].flat()];
      for (const method of methods) table.push({ method, url: route.url, access: declared });
    });
  },
  { name: 'access' },
);
