/**
 * The page's Google sign-in provider (GoogleSignInHost, a React component) for a signed-out
 * visitor, once the page is idle, when the server has a Google client id: every sign-in link on
 * the page then opens Google's popup (site/stores/google-sign-in.ts). The provider, React and
 * Google's script load only then, on demand: pages served without Google (local mode) and
 * signed-in visitors never load them. /login has its own (the rendered Google button).
 */
import { basePath, type Locale } from '../../i18n/locales.ts';
import { loadAuthConfig } from '../../stores/google-sign-in.ts';

/** Returns what to call whenever the visitor's state is known: signed out or not. */
export function googleSignInScope(locale: Locale): (signedOut: boolean) => void {
  if (basePath(window.location.pathname) === '/login') return () => {};
  let wanted = false;
  let started = false;
  let unmount: (() => void) | null = null;
  let mounting: Promise<void> | null = null;

  const mount = async () => {
    const clientId = (await loadAuthConfig())?.googleClientId;
    if (!clientId || !wanted) return;
    const { mountGoogleSignIn } = await import('./google-root.tsx');
    if (wanted) unmount = mountGoogleSignIn(clientId, locale);
  };
  const follow = () => {
    if (!wanted || unmount || mounting) return;
    mounting = mount().finally(() => (mounting = null));
  };

  return (signedOut) => {
    if (signedOut === wanted) return;
    wanted = signedOut;
    if (!wanted) {
      unmount?.();
      unmount = null;
      return;
    }
    if (started) {
      follow();
      return;
    }
    started = true;
    // After the page's own work (its paint, its islands), as the header island did on idle.
    if ('requestIdleCallback' in window) window.requestIdleCallback(follow, { timeout: 1000 });
    else setTimeout(follow, 200);
  };
}
