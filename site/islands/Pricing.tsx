/**
 * The live part of /pricing (spec 2 Pricing, 4 Subscription and Payment dialog, 8 Payment):
 * the signed-in user's credits and active subscription with Cancel, the status banner, the
 * payment and cancel dialogs, and the return from checkout. The cards themselves are static
 * HTML in the page; their buttons are the small PlanAction and PackAction islands.
 */
import { useEffect, useRef, useState } from 'react';
import { formatCredits } from '../lib/format.ts';
import * as icons from '../lib/icons/index.ts';
import { $authReady, $authToken, $user } from '../stores/auth.ts';
import { $credits } from '../stores/credits.ts';
import { handleCheckoutReturn } from '../stores/checkout-return.ts';
import { $subscription, type ActiveSubscription } from '../stores/subscription.ts';
import LoadingScreen from './LoadingScreen.tsx';
import CancelDialog from './pricing/CancelDialog.tsx';
import PaymentDialog from './pricing/PaymentDialog.tsx';
import StatusBanner from './pricing/StatusBanner.tsx';
import Icon from './shared/Icon.tsx';
import SignInLink from './shared/SignInLink.tsx';
import { useHydratedStore } from './shared/use-hydrated-store.ts';

interface PricingProps {
  /** Plan names by id, for the active-subscription box. */
  planNames: Record<string, string>;
}

function formatDate(date: Date): string {
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

function ActiveSubscriptionBox({
  subscription,
  planName,
  onCancel,
}: {
  subscription: ActiveSubscription;
  planName: string;
  onCancel: () => void;
}) {
  const cycle = subscription.billingCycle === 'yearly' ? 'Yearly' : 'Monthly';
  return (
    <section
      className="active-subscription"
      data-testid="active-subscription"
      aria-labelledby="active-subscription-title"
    >
      <div className="active-subscription__body">
        <h2 id="active-subscription-title" className="active-subscription__title">
          Active subscription
        </h2>
        <dl className="active-subscription__facts">
          <div>
            <dt>Plan</dt>
            <dd>{planName}</dd>
          </div>
          <div>
            <dt>Billing</dt>
            <dd>{cycle}</dd>
          </div>
          {subscription.currentPeriodEnd && (
            <div>
              <dt>Renews on</dt>
              <dd>
                <time dateTime={subscription.currentPeriodEnd.toISOString()}>
                  {formatDate(subscription.currentPeriodEnd)}
                </time>
              </dd>
            </div>
          )}
        </dl>
      </div>
      <button
        type="button"
        className="btn btn-secondary active-subscription__cancel"
        aria-label={`Cancel ${planName} subscription`}
        onClick={onCancel}
      >
        Cancel
      </button>
    </section>
  );
}

export default function Pricing({ planNames }: PricingProps) {
  const ready = useHydratedStore($authReady);
  const token = useHydratedStore($authToken);
  const user = useHydratedStore($user);
  const credits = useHydratedStore($credits);
  const status = useHydratedStore($subscription);
  const [cancelOpen, setCancelOpen] = useState(false);
  const accountRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void handleCheckoutReturn();
  }, []);

  const signedIn = ready && Boolean(token && user);
  const subscription = signedIn ? status.subscription : null;
  const planName = subscription ? (planNames[subscription.planId] ?? subscription.planId) : '';

  return (
    <>
      <div className="pricing-account" ref={accountRef} tabIndex={-1}>
        {!ready ? (
          <LoadingScreen variant="inline" />
        ) : signedIn ? (
          <>
            <p className="pricing-account__credits" data-testid="pricing-credits">
              <Icon icon={icons.coinOutline} className="pricing-account__coin" />
              <span>
                Your balance: <strong>{formatCredits(credits)}</strong>
              </span>
            </p>
            {subscription && (
              <ActiveSubscriptionBox
                subscription={subscription}
                planName={planName}
                onCancel={() => setCancelOpen(true)}
              />
            )}
          </>
        ) : (
          <p className="pricing-account__signin">
            <span>Log in to subscribe or buy credits.</span>
            <SignInLink className="btn btn-secondary">Log in</SignInLink>
          </p>
        )}
      </div>

      <StatusBanner />
      <PaymentDialog />
      <CancelDialog
        open={cancelOpen && subscription !== null}
        planName={planName}
        onClose={() => setCancelOpen(false)}
        fallbackFocusRef={accountRef}
      />
    </>
  );
}
