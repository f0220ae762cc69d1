/**
 * The page's Google sign-in provider (spec 2), loaded only for signed-out visitors of a server
 * with a Google client id: it loads Google's script once and offers the popup to every island's
 * SignInLink through site/stores/google-sign-in.ts. It renders nothing of its own.
 */
import {
  GoogleOAuthProvider,
  useGoogleLogin,
  useGoogleOAuth,
  type NonOAuthError,
  type TokenResponse,
} from '@react-oauth/google';
import { useEffect } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import { login_google_failed } from '../../i18n/messages.ts';
import { trackLogin } from '../../lib/analytics.ts';
import { signInWithGoogleToken } from '../../lib/api/auth.ts';
import { openSignInPage, registerGoogleStarter } from '../../stores/google-sign-in.ts';
import { setSession } from '../../stores/session.ts';

/** OAuth errors that mean the visitor chose not to go on: nothing to report. */
const DECLINED = new Set(['access_denied', 'user_cancelled']);

/** Exchange a Google access token for our session; the page's islands follow the stores. */
async function completeGoogleSignIn(accessToken: string, locale: Locale): Promise<void> {
  try {
    const body = await signInWithGoogleToken(accessToken);
    const token = body?.data?.token;
    const user = body?.data?.user;
    if (!token || !user) throw new Error('Sign-in answer has no token');
    setSession(token, user);
    trackLogin('google');
  } catch (error) {
    console.error('[sign-in] Google sign-in failed', error);
    alert(login_google_failed(locale));
  }
}

function Starter({ locale }: { locale: Locale }) {
  const { scriptLoadedSuccessfully } = useGoogleOAuth();
  const login = useGoogleLogin({
    flow: 'implicit',
    onSuccess: (response: TokenResponse) =>
      void completeGoogleSignIn(response.access_token, locale),
    onError: (response) => {
      if (DECLINED.has(response.error ?? '')) return;
      console.error('[sign-in] Google answered an error', response.error);
      alert(login_google_failed(locale));
    },
    onNonOAuthError: (error: NonOAuthError) => {
      // A blocked popup: the sign-in page has Google's own button, which needs no popup.
      if (error.type === 'popup_failed_to_open') openSignInPage();
    },
  });

  useEffect(() => {
    if (!scriptLoadedSuccessfully) return;
    return registerGoogleStarter(() => login());
  }, [scriptLoadedSuccessfully, login]);

  return null;
}

export default function GoogleSignInHost({
  clientId,
  locale,
}: {
  clientId: string;
  locale: Locale;
}) {
  return (
    <GoogleOAuthProvider
      locale={locale}
      clientId={clientId}
      onScriptLoadError={() =>
        console.warn('[sign-in] Google script did not load; Login opens /login')
      }
    >
      <Starter locale={locale} />
    </GoogleOAuthProvider>
  );
}
