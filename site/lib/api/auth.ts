/**
 * The auth calls (spec 7 "auth calls"): sign-in options, the two sign-ins and sign-out, and the
 * two mailed links (confirm an email address, set a new password).
 */
import type { AuthConfigResponse, SessionResponse } from '../../../shared/api/auth.ts';
import type { MessageResponse } from '../../../shared/api/common.ts';
import { api } from './http.ts';

/** Which sign-in methods this server offers (Google client id, local sign-in). */
export async function getAuthConfig(): Promise<AuthConfigResponse> {
  return api.get('/api/auth/config').json<AuthConfigResponse>();
}

/** Exchange a Google ID token for a session. */
export async function signInWithGoogle(credential: string): Promise<SessionResponse> {
  return api.post('/api/auth/google', { json: { credential } }).json<SessionResponse>();
}

/** Exchange a Google OAuth access token (the popup flow that any page's Login starts) for a session. */
export async function signInWithGoogleToken(token: string): Promise<SessionResponse> {
  return api.post('/api/auth/google', { json: { token } }).json<SessionResponse>();
}

/** Local sign-in: a name and an email, no password (local mode). */
export async function signInLocally(name: string, email: string): Promise<SessionResponse> {
  return api.post('/api/auth/local', { json: { name, email } }).json<SessionResponse>();
}

/** Revoke the current session on the server (the bearer token names it). */
export async function revokeSession(): Promise<void> {
  await api.post('/api/auth/signout');
}

/**
 * Confirm an email address with the token from the mailed link; answers a session. Never
 * retried: the token works once, so a repeat after a lost answer could only be refused.
 */
export async function confirmEmail(token: string): Promise<SessionResponse> {
  return api.post('/api/auth/verify-email', { json: { token }, retry: 0 }).json<SessionResponse>();
}

/** Set a new password with the token from the reset mail (single use, so never retried). */
export async function confirmPasswordReset(
  token: string,
  password: string,
): Promise<MessageResponse> {
  return api
    .post('/api/auth/reset-password/confirm', { json: { token, password }, retry: 0 })
    .json<MessageResponse>();
}
