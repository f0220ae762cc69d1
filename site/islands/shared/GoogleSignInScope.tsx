/**
 * Mounts the page's Google provider (GoogleSignInHost) once the page is idle, for a signed-out
 * visitor, when the server has a Google client id. The provider and Google's script are a chunk of
 * their own, so pages served without Google (local mode) and signed-in visitors never load them.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import { loadAuthConfig } from '../../stores/google-sign-in.ts';

const GoogleSignInHost = lazy(() => import('./GoogleSignInHost.tsx'));

export default function GoogleSignInScope({
  enabled,
  locale,
}: {
  enabled: boolean;
  locale: Locale;
}) {
  const [clientId, setClientId] = useState<string | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void loadAuthConfig().then((config) => {
      if (live) setClientId(config?.googleClientId ?? null);
    });
    return () => {
      live = false;
    };
  }, [enabled]);

  if (!enabled || !clientId) return null;
  return (
    <Suspense fallback={null}>
      <GoogleSignInHost clientId={clientId} locale={locale} />
    </Suspense>
  );
}
