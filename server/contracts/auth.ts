/**
 * Sign-in, session and user schemas (spec sections 3 User, 4 Auth, 7 auth calls). The types the
 * site reads are in shared/api/auth.ts; the field limits the login form applies too are in
 * shared/auth.ts.
 */
import { Type, type Static } from 'typebox';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../../shared/auth.ts';
import type * as api from '../../shared/api/auth.ts';
import { Ok, schemaFor } from './common.ts';

/** The user as the API returns it (spec 3 "User"). */
export const PublicUser = schemaFor<api.PublicUser>()(
  Type.Object({
    id: Type.String(),
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    picture: Type.Union([Type.String(), Type.Null()]),
    avatar_url: Type.Union([Type.String(), Type.Null()]),
    credits: Type.Integer(),
    provider: Type.String(),
    can_manage_blog: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);
export type PublicUser = api.PublicUser;

export const SessionResponse = schemaFor<api.SessionResponse>()(
  Ok(Type.Object({ token: Type.String(), user: PublicUser })),
);
export type SessionResponse = api.SessionResponse;

export const UserResponse = Ok(Type.Object({ user: PublicUser }));
export type UserResponse = Static<typeof UserResponse>;

const Email = Type.String({ format: 'email', maxLength: EMAIL_MAX_LENGTH });

/** Google sign-in: an ID token from GIS (`credential`) or an OAuth access token (`token`). */
export const GoogleSignInBody = Type.Object(
  {
    credential: Type.Optional(Type.String({ minLength: 1, maxLength: 8192 })),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 8192 })),
  },
  { additionalProperties: false },
);
export type GoogleSignInBody = Static<typeof GoogleSignInBody>;

/** Local sign-in (local mode only): a name and an email, no password. */
export const LocalSignInBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH }),
    email: Email,
  },
  { additionalProperties: false },
);
export type LocalSignInBody = Static<typeof LocalSignInBody>;

export const SignUpBody = Type.Object(
  {
    email: Email,
    password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
    name: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH })),
  },
  { additionalProperties: false },
);
export type SignUpBody = Static<typeof SignUpBody>;

export const SignInBody = Type.Object(
  {
    email: Email,
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;

export const ResetPasswordBody = Type.Object({ email: Email }, { additionalProperties: false });
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

export const ResetPasswordConfirmBody = Type.Object(
  {
    token: Type.String({ minLength: 16, maxLength: 200 }),
    password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
export type ResetPasswordConfirmBody = Static<typeof ResetPasswordConfirmBody>;

/** The token from a mailed confirmation link (POST /api/auth/verify-email). */
export const VerifyEmailBody = Type.Object(
  { token: Type.String({ minLength: 16, maxLength: 200 }) },
  { additionalProperties: false },
);
export type VerifyEmailBody = Static<typeof VerifyEmailBody>;

/** Which sign-in methods this deployment offers (read by the login page). */
export const AuthConfigResponse = schemaFor<api.AuthConfigResponse>()(
  Ok(
    Type.Object({
      googleClientId: Type.Union([Type.String(), Type.Null()]),
      localSignIn: Type.Boolean(),
    }),
  ),
);
export type AuthConfigResponse = api.AuthConfigResponse;
