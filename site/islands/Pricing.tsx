/**
 * The live part of /pricing (spec 2 Pricing, 4 Subscription and Payment dialog, 8 Payment):
 * the signed-in user's credits and active subscription with Cancel, the status banner, the
 * payment and cancel dialogs, and the return from checkout. The cards themselves are static
 * HTML in the page; their buttons are the small PlanAction and PackAction islands.
 */
import { useEffect, useRef, useState } from 'react';
import { INTL_LOCALES, type Locale } from '../i18n/locales.ts';
import * as m from '../i18n/messages.ts';
import { formatCredits, textAround } from '../lib/format.ts';
import * as icons from '../lib/icons/index.ts';
import { $authReady, $authToken, $user } from '../stores/auth.ts';
import { $credits } from '../stores/credits.ts';
import { handleCheckoutReturn } from '../stores/checkout-return.ts';
import { $subscription, type ActiveSubscription } from '../stores/subscription.ts';
import ManageBilling from './billing/ManageBilling.tsx';
import LoadingScreen from './LoadingScreen.tsx';
import CancelDialog from './pricing/CancelDialog.tsx';
import PaymentDialog from './pricing/PaymentDialog.tsx';
import PromoCodeField from './pricing/PromoCodeField.tsx';
import StatusBanner from './pricing/StatusBanner.tsx';
import Icon from './shared/Icon.tsx';
import SignInLink from './shared/SignInLink.tsx';
import { useHydratedStore } from './shared/use-hydrated-store.ts';

interface PricingProps {
  /** Plan names by id, for the active-subscription box. */
  planNames: Record<string, string>;
  /** The page's language. */
  locale: Locale;
}

function formatDate(date: Date, locale: Locale): string {
  return date.toLocaleDateString(INTL_LOCALES[locale], {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

function ActiveSubscriptionBox({
  subscription,
  planName,
  onCancel,
  locale,
}: {
  subscription: ActiveSubscription;
  planName: string;
  onCancel: () => void;
  locale: Locale;
}) {
  const cycle =
    subscription.billingCycle === 'yearly' ? m.pricing_yearly(locale) : m.pricing_monthly(locale);
  return (
    <section
      className="active-subscription"
      data-testid="active-subscription"
      aria-labelledby="active-subscription-title"
    >
      <div className="active-subscription__body">
        <h2 id="active-subscription-title" className="active-subscription__title">
          {m.pricing_active_subscription(locale)}
        </h2>
        <dl className="active-subscription__facts">
          <div>
            <dt>{m.pricing_fact_plan(locale)}</dt>
            <dd>{planName}</dd>
          </div>
          <div>
            <dt>{m.pricing_billing(locale)}</dt>
            <dd>{cycle}</dd>
          </div>
          {subscription.currentPeriodEnd && (
            <div>
              <dt>
                {subscription.cancelAtPeriodEnd
                  ? m.pricing_ends_on(locale)
                  : m.pricing_renews_on(locale)}
              </dt>
              <dd>
                <time dateTime={subscription.currentPeriodEnd.toISOString()}>
                  {formatDate(subscription.currentPeriodEnd, locale)}
                </time>
              </dd>
            </div>
          )}
        </dl>
      </div>
      <div className="active-subscription__actions">
        {/* Issue 37: invoices, receipts, the card and the plan (Stripe's portal, or ours). */}
        <ManageBilling locale={locale} />
        <button
          type="button"
          className="btn btn-secondary active-subscription__cancel"
          aria-label={m.pricing_cancel_plan_label(locale, { plan: planName })}
          onClick={onCancel}
        >
          {m.pricing_cancel(locale)}
        </button>
      </div>
    </section>
  );
}

export default function Pricing({ planNames, locale }: PricingProps) {
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
  const [balanceBefore, balanceAfter] = textAround((slot) =>
    m.pricing_balance(locale, { credits: slot }),
  );

  return (
    <>
      <div className="pricing-account" ref={accountRef} tabIndex={-1}>
        {!ready ? (
          <LoadingScreen variant="inline" locale={locale} />
        ) : signedIn ? (
          <>
            <p className="pricing-account__credits" data-testid="pricing-credits">
              <Icon icon={icons.coinOutline} className="pricing-account__coin" />
              <span>
                {balanceBefore}
                <strong>{formatCredits(credits, locale)}</strong>
                {balanceAfter}
              </span>
            </p>
            {subscription && (
              <ActiveSubscriptionBox
                subscription={subscription}
                planName={planName}
                onCancel={() => setCancelOpen(true)}
                locale={locale}
              />
            )}
            <PromoCodeField locale={locale} />
          </>
        ) : (
          <p className="pricing-account__signin">
            <span>{m.pricing_login_prompt(locale)}</span>
            <SignInLink className="btn btn-secondary" locale={locale}>
              {m.pricing_log_in(locale)}
            </SignInLink>
          </p>
        )}
      </div>

      <StatusBanner locale={locale} />
      <PaymentDialog locale={locale} />
      <CancelDialog
        open={cancelOpen && subscription !== null}
        planName={planName}
        onClose={() => setCancelOpen(false)}
        fallbackFocusRef={accountRef}
        locale={locale}
      />
    </>
  );
}
