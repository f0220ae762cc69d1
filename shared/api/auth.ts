/**
 * Sign-in, session and user shapes (spec sections 3 User, 4 Auth, 7 auth calls) the site reads.
 * The field limits are in shared/auth.ts; the schemas in server/contracts/auth.ts.
 */
import type { Ok } from './common.ts';

/** The user as the API returns it (spec 3 "User"). */
export type PublicUser = {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
  avatar_url: string | null;
  credits: number;
  provider: string;
  can_manage_blog: boolean;
  created_at: string;
  updated_at: string;
};

/** A new session: its bearer token and its user. */
export type SessionResponse = Ok<{ token: string; user: PublicUser }>;

/** Which sign-in methods this deployment offers (read by the login page). */
export type AuthConfigResponse = Ok<{ googleClientId: string | null; localSignIn: boolean }>;
