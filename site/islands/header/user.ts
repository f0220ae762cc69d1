/** What the header shows of a user, shared by its markup (parts.tsx) and its script (header.ts). */
import type { PublicUser } from '../../../shared/api/auth.ts';

/** Spec 2: name, otherwise the part of the email before the at-sign. */
export function displayName(user: PublicUser): string {
  return user.name?.trim() || user.email.split('@')[0] || user.email;
}

/** Spec 2: the avatar is `picture`, else `avatar_url`, else a generic person icon (null). */
export function avatarSource(user: PublicUser): string | null {
  return user.picture || user.avatar_url || null;
}
