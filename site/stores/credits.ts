/** The signed-in user's credit balance (spec 4 "Credits", 9: cache 3000 ms). */
import { atom, onMount } from 'nanostores';
import type { PublicUser } from '../../shared/api/auth.ts';
import { getBalance } from '../lib/api/credits.ts';
import { httpStatus } from '../lib/api/http.ts';
import { $user, clearSession, updateUser } from './auth.ts';

export const CREDITS_CACHE_MS = 3000;

/** Credits shown in the header and used by the generator; 0 when signed out or unknown. */
export const $credits = atom(0);

let cached: { userId: string; total: number; at: number } | null = null;
let inFlight: { userId: string; promise: Promise<number> } | null = null;
let lastSeenServerUser: string | null = null;

/** An island learned the new balance from another answer (e.g. remainingCredits after a generation). */
export function setCredits(total: number): void {
  $credits.set(total);
  const userId = $user.get()?.id;
  if (userId) cached = { userId, total, at: Date.now() };
}

/**
 * Fetch the balance for the signed-in user. Answers within 3 s come from the cache unless
 * `force`; concurrent calls share one request. Failure shows 0 (spec 8).
 */
export function refreshCredits({ force = false }: { force?: boolean } = {}): Promise<number> {
  const userId = $user.get()?.id;
  if (!userId) {
    $credits.set(0);
    return Promise.resolve(0);
  }
  if (inFlight?.userId === userId) return inFlight.promise;
  if (!force && cached?.userId === userId && Date.now() - cached.at < CREDITS_CACHE_MS) {
    $credits.set(cached.total);
    return Promise.resolve(cached.total);
  }
  const promise = fetchBalance(userId).finally(() => {
    if (inFlight?.promise === promise) inFlight = null;
  });
  inFlight = { userId, promise };
  return promise;
}

async function fetchBalance(userId: string): Promise<number> {
  let total = 0;
  try {
    const body = await getBalance();
    total = body.data.total_credits;
    cached = { userId, total, at: Date.now() };
    adoptServerUser(body.data.user);
  } catch (error) {
    // HTTP and network failures are already logged by the api client; this catches bad bodies too.
    console.error('[credits] balance unavailable, showing 0', error);
    // A 401 means the stored session expired or was revoked elsewhere: show the visitor signed out.
    if (httpStatus(error) === 401 && $user.get()?.id === userId) {
      clearSession();
    }
  }
  // Ignore a late answer for a user who has signed out or switched accounts meanwhile.
  if ($user.get()?.id === userId) $credits.set(total);
  return total;
}

/** Spec 4: the server's user replaces the local one only when it differs from the last seen copy. */
function adoptServerUser(serverUser: PublicUser): void {
  const json = JSON.stringify(serverUser);
  if (json === lastSeenServerUser) return;
  lastSeenServerUser = json;
  const local = $user.get();
  if (local?.id === serverUser.id && JSON.stringify(local) !== json) updateUser(serverUser);
}

// Follow the session while anything shows credits: a new user loads its balance, sign-out resets
// to 0, and any localStorage change (another tab bought or spent credits) refreshes.
onMount($credits, () => {
  if (typeof window === 'undefined') return;
  // undefined: the first call always applies, so a remount after sign-out never shows stale credits.
  let currentUserId: string | null | undefined = undefined;
  const unsubscribeUser = $user.subscribe((user) => {
    const userId = user?.id ?? null;
    if (userId === currentUserId) return;
    currentUserId = userId;
    cached = null;
    lastSeenServerUser = null;
    // Show the stored count at once; the server's answer (or 0 on failure) follows.
    $credits.set(user?.credits ?? 0);
    if (userId) void refreshCredits({ force: true });
  });
  const onStorage = (event: StorageEvent) => {
    if (event.storageArea !== window.localStorage) return;
    // Let the auth store apply the same event first, so the refresh sees the new user.
    window.setTimeout(() => void refreshCredits(), 0);
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribeUser();
    window.removeEventListener('storage', onStorage);
  };
});
