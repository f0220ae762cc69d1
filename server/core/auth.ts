/**
 * Request identity. A request's user comes only from its bearer session token; the spec's
 * x-user-id / x-user-email headers are accepted only when they agree with that session.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { authenticator: Authenticator }) => {
    app.decorateRequest('user', null);
    app.decorateRequest('session', null);
    const identify = async (request: FastifyRequest, token: string | null) => {
      if (token) {
        const found = await opts.authenticator.authenticate(token);
        if (found) {
          request.user = found.user;
          request.session = found.session;
        }
      }
      const claimedId = request.headers['x-user-id'];
      const claimedEmail = request.headers['x-user-email'];
      if (claimedId === undefined && claimedEmail === undefined) return;
      const user = request.user;
      if (!user) {
        throw forbidden(msg('auth.identity_without_session'), 'IDENTITY_MISMATCH');
      }
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
    app.addHook('onRequest', (request, _reply, done) => {
      const token = bearerToken(request);
      // Most requests (pages, public reads) carry no identity at all: nothing to wait for.
      const h = request.headers;
      if (!token && h['x-user-id'] === undefined && h['x-user-email'] === undefined) return done();
      identify(request, token).then(() => done(), done);
    });
  },
  { name: 'auth', dependencies: ['errors'] },
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
