/**
 * Google sign-in from anywhere on a page (spec 2: "A Google sign-in provider wraps the app").
 *
 * Astro renders each island as its own React root, so "the app" is the page. One Google provider
 * per page (GoogleSignInHost, mounted by the header, which every page has) loads Google's script
 * once and registers a starter here. Every island that can start a sign-in (the header's Login,
 * the generator's login prompt, the pricing page's Log in and its "please login" banner, the
 * history page's Login Now) renders a SignInLink, which calls `startSignIn` from its click:
 * Google's popup opens in that same click (browsers only allow popups from a user's gesture),
 * the access token it answers is exchanged for our session, and the visitor stays where they
 * were. Without a Google client id (local mode), before the script is ready, or when the popup is
 * blocked, the link does what it always did: open /login.
 */
import type { AuthConfigResponse } from '../../shared/api/auth.ts';
import { isLocale, localizePath } from '../i18n/locales.ts';
import { getAuthConfig } from '../lib/api/auth.ts';

export const LOGIN_PATH = '/login';

type AuthConfig = AuthConfigResponse['data'];

let configRequest: Promise<AuthConfig | null> | null = null;

/**
 * Which sign-in methods the server offers, asked once per page. A failed answer is not kept
 * (the next caller asks again) and reads as "no Google": the links then open /login.
 */
export function loadAuthConfig(): Promise<AuthConfig | null> {
  configRequest ??= getAuthConfig().then(
    (body) => body.data,
    (error: unknown) => {
      console.warn('[sign-in] could not read the sign-in options', error);
      configRequest = null;
      return null;
    },
  );
  return configRequest;
}

let starter: (() => void) | null = null;

/** The page's Google provider offers its popup; the returned function withdraws it. */
export function registerGoogleStarter(start: () => void): () => void {
  starter = start;
  return () => {
    if (starter === start) starter = null;
  };
}

/**
 * Start a sign-in from a click. True when Google's popup was asked for (the caller then keeps
 * its link from navigating); false when the link should open /login instead.
 */
export function startSignIn(): boolean {
  if (!starter) return false;
  starter();
  return true;
}

/** Google could not open its popup (blocked, or the script failed): use the sign-in page. */
export function openSignInPage(): void {
  const lang = document.documentElement.lang;
  window.location.assign(localizePath(LOGIN_PATH, isLocale(lang) ? lang : 'en'));
}
