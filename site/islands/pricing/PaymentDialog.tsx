/**
 * Payment dialog (spec 4 "Payment dialog"): shows the item, creates the hosted checkout session
 * at once and sends the browser to the provider. Failures close it and explain in the banner.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { formatCredits, formatPrice } from '../../lib/format.ts';
import {
  $purchase,
  BANNER_LONG_MS,
  CheckoutError,
  PAYMENT_FAILED,
  closePurchase,
  createCheckoutSession,
  showBanner,
  type PurchaseItem,
} from '../../stores/subscription.ts';
import Dialog from '../shared/Dialog.tsx';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';

type Phase = 'creating' | 'redirecting';

export default function PaymentDialog() {
  const item = useHydratedStore($purchase);
  const [phase, setPhase] = useState<Phase>('creating');
  const started = useRef<PurchaseItem | null>(null);
  const headingId = useId();
  const statusId = useId();

  useEffect(() => {
    if (!item) {
      started.current = null;
      return;
    }
    if (started.current === item) return;
    started.current = item;
    let active = true;
    setPhase('creating');
    createCheckoutSession(item)
      .then((url) => {
        if (!active) return;
        setPhase('redirecting');
        window.location.assign(url);
      })
      .catch((error: unknown) => {
        if (!active) return;
        const failure =
          error instanceof CheckoutError
            ? error
            : new CheckoutError(PAYMENT_FAILED, { cause: error });
        closePurchase();
        showBanner({
          tone: 'error',
          message: failure.message,
          loginLink: failure.loginLink,
          durationMs: BANNER_LONG_MS,
        });
      });
    return () => {
      active = false;
    };
  }, [item]);

  useEffect(() => {
    // Back from the provider's page through the back/forward cache: the old dialog is stale.
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      started.current = null;
      closePurchase();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const isPlan = item?.type === 'subscription';

  return (
    <Dialog
      open={item !== null}
      // The session request must not be abandoned half-way: a new click would open a second one.
      busy
      onClose={closePurchase}
      labelledBy={headingId}
      describedBy={statusId}
      className="pricing-dialog payment-dialog"
      testId="payment-dialog"
    >
      {item && (
        <>
          <h2 id={headingId} className="pricing-dialog__title">
            Checkout
          </h2>
          <div className="payment-dialog__item">
            <div>
              <p className="payment-dialog__name">
                {item.name} {isPlan ? 'plan' : 'pack'}
              </p>
              <p className="payment-dialog__detail">
                {item.type === 'subscription'
                  ? `${item.billingCycle === 'yearly' ? 'Yearly' : 'Monthly'} subscription · ${formatCredits(item.credits)} every month`
                  : `One-time purchase · ${formatCredits(item.credits)}, never expire`}
              </p>
            </div>
            <p className="payment-dialog__price">
              {formatPrice(item.price)}
              {item.type === 'subscription' && (
                <span>{item.billingCycle === 'yearly' ? '/year' : '/month'}</span>
              )}
            </p>
          </div>
          <p id={statusId} className="payment-dialog__status" role="status">
            <span className="spinner spinner-sm" aria-hidden="true" />
            {phase === 'creating'
              ? 'Creating your secure checkout session…'
              : 'Redirecting to secure checkout…'}
          </p>
          <p className="payment-dialog__note">
            You will pay on our payment provider’s secure page and come back here afterwards.
          </p>
        </>
      )}
    </Dialog>
  );
}
