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
import {
  completeGoogleSignIn,
  GOOGLE_SIGN_IN_FAILED,
  openSignInPage,
  registerGoogleStarter,
} from '../../stores/google-sign-in.ts';

/** OAuth errors that mean the visitor chose not to go on: nothing to report. */
const DECLINED = new Set(['access_denied', 'user_cancelled']);

function Starter() {
  const { scriptLoadedSuccessfully } = useGoogleOAuth();
  const login = useGoogleLogin({
    flow: 'implicit',
    onSuccess: (response: TokenResponse) => void completeGoogleSignIn(response.access_token),
    onError: (response) => {
      if (DECLINED.has(response.error ?? '')) return;
      console.error('[sign-in] Google answered an error', response.error);
      alert(GOOGLE_SIGN_IN_FAILED);
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

export default function GoogleSignInHost({ clientId }: { clientId: string }) {
  return (
    <GoogleOAuthProvider
      clientId={clientId}
      onScriptLoadError={() =>
        console.warn('[sign-in] Google script did not load; Login opens /login')
      }
    >
      <Starter />
    </GoogleOAuthProvider>
  );
}
