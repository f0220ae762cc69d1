/**
 * Payment dialog (spec 4 "Payment dialog"): shows the item, creates the hosted checkout session
 * at once and sends the browser to the provider. Failures close it and explain in the banner.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { formatCredits, formatPrice } from '../../lib/format.ts';
import {
  $purchase,
  BANNER_LONG_MS,
  CheckoutError,
  closePurchase,
  createCheckoutSession,
  showBanner,
  type PurchaseItem,
} from '../../stores/subscription.ts';
import Dialog from '../shared/Dialog.tsx';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';

type Phase = 'creating' | 'redirecting';

/** What the dialog says about the item, in the page's language. */
function itemTexts(item: PurchaseItem, locale: Locale) {
  const credits = formatCredits(item.credits, locale);
  if (item.type === 'subscription') {
    const yearly = item.billingCycle === 'yearly';
    return {
      name: m.pricing_item_plan(locale, { name: item.name }),
      detail: (yearly ? m.pricing_detail_yearly : m.pricing_detail_monthly)(locale, { credits }),
      period: yearly ? m.pricing_per_year(locale) : m.pricing_per_month(locale),
    };
  }
  return {
    name: m.pricing_item_pack(locale, { name: item.name }),
    detail: m.pricing_detail_pack(locale, { credits }),
    period: null,
  };
}

export default function PaymentDialog({ locale }: { locale: Locale }) {
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
    createCheckoutSession(item, locale)
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
            : new CheckoutError(m.pricing_payment_failed, { cause: error });
        closePurchase();
        showBanner({
          tone: 'error',
          message: failure.text,
          loginLink: failure.loginLink,
          durationMs: BANNER_LONG_MS,
        });
      });
    return () => {
      active = false;
    };
  }, [item, locale]);

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

  const texts = item && itemTexts(item, locale);

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
      {item && texts && (
        <>
          <h2 id={headingId} className="pricing-dialog__title">
            {m.pricing_checkout_title(locale)}
          </h2>
          <div className="payment-dialog__item">
            <div>
              <p className="payment-dialog__name">{texts.name}</p>
              <p className="payment-dialog__detail">{texts.detail}</p>
            </div>
            <p className="payment-dialog__price">
              {formatPrice(item.price, locale)}
              {texts.period && <span>{texts.period}</span>}
            </p>
          </div>
          <p id={statusId} className="payment-dialog__status" role="status">
            <span className="spinner spinner-sm" aria-hidden="true" />
            {phase === 'creating'
              ? m.pricing_creating_session(locale)
              : m.pricing_redirecting(locale)}
          </p>
          <p className="payment-dialog__note">{m.pricing_payment_note(locale)}</p>
        </>
      )}
    </Dialog>
  );
}
