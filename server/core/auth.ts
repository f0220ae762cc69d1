/**
 * Request identity. A request's user comes only from its bearer session token; the spec's
 * x-user-id / x-user-email headers are accepted only when they agree with that session.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import type { UserRow } from '../db/schema.ts';
import { forbidden, unauthorized } from './errors.ts';
import { msg } from './api-messages.ts';

interface RequestSession {
  id: string;
  userId: string;
  isAdmin: boolean;
}

export interface SessionAndUser {
  session: RequestSession;
  user: UserRow;
}

export interface Authenticator {
  /**
   * The live session and user of a token this process has cached, without a promise (most
   * signed-in requests); undefined when it must be read (`authenticate`).
   */
  cached?(token: string): SessionAndUser | undefined;
  /** Resolves a bearer token to its live session and user, or null. */
  authenticate(token: string): Promise<SessionAndUser | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    session: RequestSession | null;
  }
}

/** Reads `Authorization: Bearer <token>`; anything else is anonymous. */
function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Whether a route reads its caller: every signed-in level, a public route that declares
 * `readsUser` (its answer depends on who asks: /api/db), and one whose body may be larger for a
 * signed-in caller (core/access.ts). No other route looks at `request.user`, so for them a
 * session token costs no lookup. A route that reads the user without saying so sees every caller
 * as signed out: it refuses, never grants.
 */
function readsUser(route: RouteOptions, serverBodyLimit: number): boolean {
  const access = route.config?.access;
  if (access === 'user' || access === 'editor' || access === 'admin') return true;
  return route.config?.readsUser === true || (route.bodyLimit ?? 0) > serverBodyLimit;
}

/**
 * Reads the caller's session, for the routes that read it (readsUser), as the first of their
 * onRequest hooks: before the access guard, before the body is read. The spec's x-user-id and
 * x-user-email headers are checked on every route: a request carrying them is refused unless its
 * session agrees, whatever it asks for.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { authenticator: Authenticator }) => {
    app.decorateRequest('user', null);
    app.decorateRequest('session', null);
    const readSession = async (request: FastifyRequest, token: string) => {
      const found = await opts.authenticator.authenticate(token);
      if (found) {
        request.user = found.user;
        request.session = found.session;
      }
    };
    const checkClaims = async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (token) await readSession(request, token);
      const user = request.user;
      if (!user) {
        throw forbidden(msg('auth.identity_without_session'), 'IDENTITY_MISMATCH');
      }
      const claimedId = request.headers['x-user-id'];
      const claimedEmail = request.headers['x-user-email'];
      if (claimedId !== undefined && claimedId !== user.id) {
        throw forbidden(msg('auth.user_id_mismatch'), 'IDENTITY_MISMATCH');
      }
      if (
        claimedEmail !== undefined &&
        String(claimedEmail).trim().toLowerCase() !== user.email.toLowerCase()
      ) {
        throw forbidden(msg('auth.user_email_mismatch'), 'IDENTITY_MISMATCH');
      }
    };
    // Callback style: it runs on every request, and nearly all carry no identity headers. The
    // public API's routes ('api-key') identify their caller by the key alone and ignore them.
    app.addHook('onRequest', (request, _reply, done) => {
      const h = request.headers;
      if (h['x-user-id'] === undefined && h['x-user-email'] === undefined) return done();
      if (request.routeOptions.config.access === 'api-key') return done();
      checkClaims(request).then(() => done(), done);
    });
    const serverBodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;
    const identify: onRequestHookHandler = (request, _reply, done) => {
      // Already read with the identity headers' check.
      if (request.session) return done();
      const token = bearerToken(request);
      if (!token) return done();
      const known = opts.authenticator.cached?.(token);
      if (known) {
        request.user = known.user;
        request.session = known.session;
        return done();
      }
      readSession(request, token).then(() => done(), done);
    };
    // Registered after core/access.ts: its guard is already in the route's hooks, and goes after.
    app.addHook('onRoute', (route) => {
      if (!readsUser(route, serverBodyLimit)) return;
      route.onRequest = [identify, ...[route.onRequest ?? []].flat()];
    });
  },
  { name: 'auth', dependencies: ['errors', 'access'] },
);

/** Guard of `access: 'user'` routes (installed by core/access.ts): a signed-in user. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized(msg('auth.sign_in_required'), 'SIGN_IN_REQUIRED');
}

/** The signed-in user of a route declared `access: 'user'`, 'editor' or 'admin'. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized(msg('auth.sign_in_required'), 'SIGN_IN_REQUIRED');
  return request.user;
}

/** Guard of `access: 'admin'` routes: an administrator session. */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized(msg('auth.sign_in_required'), 'SIGN_IN_REQUIRED');
  if (!request.session?.isAdmin) {
    throw forbidden(msg('auth.admin_required'), 'ADMIN_REQUIRED');
  }
}

/** Guard of `access: 'editor'` routes: a user with can_manage_blog. */
export async function requireEditor(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized(msg('auth.sign_in_required'), 'SIGN_IN_REQUIRED');
  if (!request.user.canManageBlog) throw forbidden(msg('blog.no_permission'), 'NOT_EDITOR');
}
