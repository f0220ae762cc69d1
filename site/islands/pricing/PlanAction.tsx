/**
 * A plan card's button (spec 4 Subscription): neutral while the session and status load;
 * 'Subscribe' without a subscription; while one is active every plan button is disabled, the
 * current plan is marked 'Current' with 'Current Plan' and the others read
 * 'Switch Plan (Cancel First)'. Subscribe buys the plan in the cycle the page's switch shows.
 * The neutral button is marked not ready rather than disabled, so a tap on it (from the first
 * paint on) is kept and replayed once the button can act (site/islands/shared/use-early-tap.ts).
 */
import { useMemo } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { $authReady, $authToken, $user } from '../../stores/auth.ts';
import {
  $billingCycle,
  $subscription,
  startPurchase,
  type PurchaseItem,
} from '../../stores/subscription.ts';
import { earlyProps, useEarlyTap } from '../shared/use-early-tap.ts';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';

interface PlanActionProps {
  plan: { id: string; name: string; monthlyPrice: number; yearlyPrice: number; credits: number };
  /** Id of the card's name heading, to give the disabled states their context. */
  nameId: string;
  /** The highlighted (popular) card gets the filled button. */
  featured?: boolean;
  locale: Locale;
}

const SUBSCRIBE_LABELS = {
  monthly: m.pricing_subscribe_monthly_label,
  yearly: m.pricing_subscribe_yearly_label,
};

export default function PlanAction({ plan, nameId, featured = false, locale }: PlanActionProps) {
  const ready = useHydratedStore($authReady);
  const token = useHydratedStore($authToken);
  const user = useHydratedStore($user);
  const status = useHydratedStore($subscription);
  const cycle = useHydratedStore($billingCycle);

  // The switch's cycle (CycleSwitch.tsx): a yearly plan charges its yearly price once a year.
  const item = useMemo<PurchaseItem>(
    () => ({
      type: 'subscription',
      id: plan.id,
      name: plan.name,
      price: cycle === 'yearly' ? plan.yearlyPrice : plan.monthlyPrice,
      credits: plan.credits,
      billingCycle: cycle,
    }),
    [plan.id, plan.name, plan.monthlyPrice, plan.yearlyPrice, plan.credits, cycle],
  );

  const signedIn = ready && Boolean(token && user);
  const pending = !ready || (signedIn && !status.loaded);
  const { live, ref } = useEarlyTap<HTMLButtonElement>(!pending);

  if (!live) {
    return (
      <button
        ref={ref}
        type="button"
        className="btn btn-block plan-action plan-action--pending"
        {...earlyProps(live)}
      >
        <span className="spinner spinner-sm" aria-hidden="true" />
        <span className="sr-only">{m.pricing_checking_plan(locale)}</span>
      </button>
    );
  }

  const active = signedIn ? status.subscription : null;
  if (active) {
    const isCurrent = active.planId === plan.id;
    return (
      <>
        {isCurrent && (
          <span className="plan-card__current" data-current-plan="">
            {m.pricing_current(locale)}
          </span>
        )}
        <button
          type="button"
          className={`btn btn-block plan-action ${isCurrent ? 'plan-action--current' : 'btn-secondary'}`}
          disabled
          aria-describedby={nameId}
        >
          {isCurrent ? m.pricing_current_plan(locale) : m.pricing_switch_plan(locale)}
        </button>
      </>
    );
  }

  return (
    <button
      ref={ref}
      type="button"
      className={`btn btn-block plan-action ${featured ? 'btn-primary' : 'btn-secondary'}`}
      aria-label={SUBSCRIBE_LABELS[cycle](locale, { plan: plan.name })}
      onClick={() => startPurchase(item)}
    >
      {m.pricing_subscribe(locale)}
    </button>
  );
}
