/**
 * The stored session (spec 3 "User", 4 "Auth"): localStorage holds it under `user` and
 * `authToken`, and these atoms mirror it. It starts by itself the first time anything reads or
 * follows one of the atoms (an island, the HTTP client), so no island has to start it.
 * No requests here: the HTTP client reads the token from this module. Islands use stores/auth.ts.
 */
import { atom, onMount } from 'nanostores';
import type { PublicUser } from '../../shared/api/auth.ts';

/** localStorage keys named by the spec. */
export const USER_STORAGE_KEY = 'user';
export const TOKEN_STORAGE_KEY = 'authToken';

export const $user = atom<PublicUser | null>(null);
export const $authToken = atom<string | null>(null);
/** False until the session was read from localStorage, so nothing flashes signed-out before that. */
export const $authReady = atom(false);

// localStorage can throw (blocked storage, private modes); a failure there means "no session".
function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch (error) {
    console.error(`[auth] could not store "${key}"`, error);
  }
}

function removeStorage(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored that we could remove.
  }
}

/** A stored user is usable only if it is JSON for an object with an id. */
function parseStoredUser(raw: string | null): PublicUser | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const id = (value as { id?: unknown }).id;
    return typeof id === 'string' && id !== '' ? (value as PublicUser) : null;
  } catch {
    return null;
  }
}

function applySession(token: string | null, user: PublicUser | null): void {
  $authToken.set(token);
  $user.set(user);
}

/** Start-up restore (spec 4): both entries valid, or drop whatever is there and stay anonymous. */
function restoreStoredSession(): void {
  const token = readStorage(TOKEN_STORAGE_KEY);
  const rawUser = readStorage(USER_STORAGE_KEY);
  const user = parseStoredUser(rawUser);
  if (token && user) {
    applySession(token, user);
    return;
  }
  if (token !== null || rawUser !== null) {
    removeStorage(TOKEN_STORAGE_KEY);
    removeStorage(USER_STORAGE_KEY);
  }
  applySession(null, null);
}

/**
 * Another tab changed the session (spec 4): SIGNED_IN when an authToken exists, else SIGNED_OUT,
 * which clears the user. Storage is only read here, never cleaned: the other tab may be mid-write.
 */
function onStorage(event: StorageEvent): void {
  if (event.storageArea !== window.localStorage) return;
  if (event.key !== null && event.key !== TOKEN_STORAGE_KEY && event.key !== USER_STORAGE_KEY) {
    return;
  }
  const token = readStorage(TOKEN_STORAGE_KEY);
  if (!token) {
    applySession(null, null);
    return;
  }
  const user = parseStoredUser(readStorage(USER_STORAGE_KEY));
  // A token without its user yet: the user's own storage event follows and completes the pair.
  if (user) applySession(token, user);
}

let initialized = false;

/** Read the stored session once and follow other tabs. Runs when the atoms are first used. */
export function initAuth(): void {
  if (initialized || typeof window === 'undefined') return;
  initialized = true;
  restoreStoredSession();
  window.addEventListener('storage', onStorage);
  $authReady.set(true);
}

// The one place the session starts: the first read of or subscription to any of its atoms (in the
// browser; pre-rendering keeps the signed-out initial values).
if (typeof window !== 'undefined') {
  for (const $store of [$user, $authToken, $authReady]) onMount($store, initAuth);
}

/** Store a fresh session from a sign-in answer. */
export function setSession(token: string, user: PublicUser): void {
  // User first: another tab acts on the authToken event and then finds a complete pair.
  writeStorage(USER_STORAGE_KEY, JSON.stringify(user));
  writeStorage(TOKEN_STORAGE_KEY, token);
  applySession(token, user);
}

/** Replace the signed-in user (new credits, server-side changes). Ignored when signed out. */
export function updateUser(user: PublicUser): void {
  if (!$authToken.get()) return;
  writeStorage(USER_STORAGE_KEY, JSON.stringify(user));
  $user.set(user);
}

/** Forget the session locally: token first, so other tabs go SIGNED_OUT on the first event. */
export function clearSession(): void {
  removeStorage(TOKEN_STORAGE_KEY);
  removeStorage(USER_STORAGE_KEY);
  applySession(null, null);
}
