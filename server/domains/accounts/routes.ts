/** HTTP for accounts: sign-in paths, email confirmation, sign-out, current user, password reset. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.ts';
import { currentUser } from '../../core/auth.ts';
import { ErrorResponse, MessageResponse } from '../../contracts/common.ts';
import {
  AuthConfigResponse,
  GoogleSignInBody,
  LocalSignInBody,
  ResetPasswordBody,
  ResetPasswordConfirmBody,
  SessionResponse,
  SignInBody,
  SignUpBody,
  UserResponse,
  VerifyEmailBody,
} from '../../contracts/auth.ts';
import { localeFromAcceptLanguage } from '../../../shared/locales.ts';
import { SIGN_UP_MESSAGE } from './email-accounts.ts';
import type { AccountsService } from './service.ts';
import { answerText } from '../../core/api-messages.ts';

/** The language the client asks for: the mails a request sends are written in it. */
const requestLocale = (request: FastifyRequest) =>
  localeFromAcceptLanguage(request.headers['accept-language']);

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };

export async function accountsRoutes(
  fastify: FastifyInstance,
  opts: { accounts: AccountsService; config: Config; authRateLimit: number },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts, config } = opts;
  const rateLimit = { max: opts.authRateLimit, timeWindow: '1 minute' };
  const tags = ['auth'];

  app.get(
    '/api/auth/config',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Which sign-in methods this server offers',
        response: { 200: AuthConfigResponse },
      },
    },
    async (_request, reply) => {
      // Asked by every signed-out page view (the page's Google sign-in); it changes only when
      // the server restarts with another configuration, so browsers keep it for a few minutes.
      reply.header('cache-control', 'public, max-age=300');
      return {
        success: true as const,
        data: { googleClientId: config.google.clientId, localSignIn: config.localMode },
      };
    },
  );

  app.post(
    '/api/auth/google',
    {
      config: { access: 'public', rateLimit },
      schema: {
        tags,
        summary: 'Sign in with a Google ID token (credential) or access token (token)',
        body: GoogleSignInBody,
        response: { 200: SessionResponse, ...errors, 409: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await accounts.signInWithGoogle(request.body),
    }),
  );

  if (config.localMode) {
    app.post(
      '/api/auth/local',
      {
        config: { access: 'public', rateLimit },
        schema: {
          tags,
          summary: 'Local sign-in with a name and an email (local mode only)',
          body: LocalSignInBody,
          response: { 200: SessionResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await accounts.signInLocal(request.body),
      }),
    );
  }

  app.post(
    '/auth/signup',
    {
      config: { access: 'public', rateLimit },
      schema: {
        tags,
        summary:
          'Create an account with an email and a password; it is usable once the mailed link is opened',
        body: SignUpBody,
        response: { 200: MessageResponse, ...errors, 409: ErrorResponse },
      },
    },
    async (request) => {
      await accounts.signUp(request.body, requestLocale(request));
      return { success: true, message: SIGN_UP_MESSAGE };
    },
  );

  app.post(
    '/api/auth/verify-email',
    {
      config: { access: 'public', rateLimit },
      schema: {
        tags,
        summary: 'Confirm an email address with the token from the mailed link, and sign in',
        body: VerifyEmailBody,
        response: { 200: SessionResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await accounts.verifyEmail(request.body.token),
    }),
  );

  app.post(
    '/auth/signin',
    {
      config: { access: 'public', rateLimit },
      schema: {
        tags,
        summary: 'Sign in with an email and a password (403 until the address is confirmed)',
        body: SignInBody,
        response: { 200: SessionResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await accounts.signIn(request.body, requestLocale(request)),
    }),
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: { access: 'public', rateLimit },
      schema: {
        tags,
        summary: 'Mail a password-reset link (answers the same whether the account exists or not)',
        body: ResetPasswordBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      // The lookup and the mail happen after this answer (email-accounts.ts).
      accounts.requestPasswordReset(request.body.email, requestLocale(request));
      return {
        success: true,
        message: answerText('accounts.reset_sent'),
      };
    },
  );

  app.post(
    '/api/auth/reset-password/confirm',
    {
      config: { access: 'public', rateLimit },
      schema: {
        tags,
        summary: 'Set a new password with the token from the reset mail',
        body: ResetPasswordConfirmBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await accounts.confirmPasswordReset(request.body);
      return { success: true, message: answerText('accounts.password_changed') };
    },
  );

  app.post(
    '/api/auth/signout',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Revoke the current session',
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await accounts.signOut(request.session!.id);
      return { success: true, message: answerText('accounts.signed_out') };
    },
  );

  app.get(
    '/api/auth/user',
    {
      config: { access: 'user' },
      schema: { tags, summary: 'The signed-in user', response: { 200: UserResponse, ...errors } },
    },
    async (request) => ({
      success: true as const,
      data: { user: accounts.toPublicUser(currentUser(request)) },
    }),
  );
}
