/**
 * Signed-in state shared by every island (spec 3 "User", 4 "Auth"): the stored session (see
 * session.ts, which starts itself) and signing out, which also tells the server.
 */
import { revokeSession } from '../lib/api/auth.ts';
import { httpStatus } from '../lib/api/http.ts';
import { clearSession } from './session.ts';

export {
  $authReady,
  $authToken,
  $user,
  clearSession,
  initAuth,
  setSession,
  TOKEN_STORAGE_KEY,
  updateUser,
  USER_STORAGE_KEY,
} from './session.ts';

/**
 * Sign out (spec 4): revoke the session on the server, then remove authToken and user and go to /.
 * Credits reset through the credits store, which follows `$user`.
 * Returns false when the server call failed (logged; spec 8: the menu stays open).
 */
export async function signOut(): Promise<boolean> {
  try {
    await revokeSession();
  } catch (error) {
    // A 401 means the session is already gone on the server: finish signing out locally.
    if (httpStatus(error) !== 401) {
      console.error('[auth] sign out failed', error);
      return false;
    }
  }
  clearSession();
  window.location.assign('/');
  return true;
}
