/** Mounts the page's Google sign-in provider in a root of its own (loaded on demand by google.ts). */
import { createRoot } from 'react-dom/client';
import type { Locale } from '../../i18n/locales.ts';
import GoogleSignInHost from '../shared/GoogleSignInHost.tsx';

/** Render the provider (it draws nothing); returns what unmounts it. */
export function mountGoogleSignIn(clientId: string, locale: Locale): () => void {
  const root = createRoot(document.createElement('div'));
  root.render(<GoogleSignInHost clientId={clientId} locale={locale} />);
  return () => root.unmount();
}
