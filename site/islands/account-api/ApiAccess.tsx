/**
 * /account/api (issue 36): the signed-in user's API keys (ApiKeys.tsx), webhook endpoints and
 * the signing secret for requests' own webhook_url (Webhooks.tsx). A signed-out visitor gets the
 * same sign-in prompt as /account. The lists are fetched with the session; the deliveries load
 * only when asked for.
 */
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { $authReady, $user } from '../../stores/auth.ts';
import LoadingScreen from '../LoadingScreen.tsx';
import SignInLink from '../shared/SignInLink.tsx';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';
import ApiKeys from './ApiKeys.tsx';
import Webhooks from './Webhooks.tsx';

export default function ApiAccess({ locale = 'en' }: { locale?: Locale }) {
  const ready = useHydratedStore($authReady);
  const user = useHydratedStore($user);

  if (!ready) return <LoadingScreen variant="inline" locale={locale} />;
  if (!user) {
    return (
      <section className="card account-section" data-testid="account-sign-in">
        <h2>{m.apiaccess_sign_in_title(locale)}</h2>
        <p>{m.apiaccess_sign_in_text(locale)}</p>
        <SignInLink className="btn btn-primary" locale={locale}>
          {m.apiaccess_sign_in(locale)}
        </SignInLink>
      </section>
    );
  }
  // Another account signing in on this page starts the lists afresh.
  return (
    <div className="account-sections" key={user.id}>
      <ApiKeys locale={locale} />
      <Webhooks locale={locale} />
    </div>
  );
}
