/**
 * Payment dialog (spec 4 "Payment dialog"): shows the item, creates the hosted checkout session
 * at once and sends the browser to the provider. Failures close it and explain in the banner.
 * With a promotion code entered on the page (issue 37), the code is first checked for this item:
 * the dialog shows the price after it and the checkout carries it; a code this item cannot take
 * stops here with the reason, and the buyer goes on without it or back to the page.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { formatCredits } from '../../lib/format.ts';
import {
  $purchase,
  BANNER_LONG_MS,
  CheckoutError,
  closePurchase,
  createCheckoutSession,
  showBanner,
  type PurchaseItem,
} from '../../stores/subscription.ts';
import { quotePromotion } from '../../lib/api/promotions.ts';
import { readApiError } from '../../lib/api/http.ts';
import {
  $promotionCode,
  quoteTarget,
  setPromotionCode,
  type PromotionQuote,
} from '../../stores/promotion.ts';
import Dialog from '../shared/Dialog.tsx';
import { PromoPrice, PromoRefusal } from './PromoSummary.tsx';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';

type Phase = 'creating' | 'redirecting' | 'promo-refused';

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
  const [quote, setQuote] = useState<PromotionQuote | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  /** Bumped by "Continue without the code": the checkout starts again, codeless. */
  const [attempt, setAttempt] = useState(0);
  const started = useRef<{ item: PurchaseItem; attempt: number } | null>(null);
  const headingId = useId();
  const statusId = useId();

  useEffect(() => {
    if (!item) {
      started.current = null;
      return;
    }
    if (started.current?.item === item && started.current.attempt === attempt) return;
    started.current = { item, attempt };
    let active = true;
    setPhase('creating');
    setQuote(null);
    setRefusal(null);
    const code = $promotionCode.get();
    const checked = code
      ? quotePromotion(code, quoteTarget(item)).then(
          (found) => {
            if (active) setQuote(found);
            return true;
          },
          (error: unknown) => {
            const answer = readApiError(error);
            // Refused for this item: say why and wait. Unchecked (5xx): the checkout decides.
            if (!answer || answer.status >= 500) return true;
            if (active) {
              setRefusal(answer.message);
              setPhase('promo-refused');
            }
            return false;
          },
        )
      : Promise.resolve(true);
    checked
      .then((go) => (go && active ? createCheckoutSession(item, locale, code) : null))
      .then((url) => {
        if (!url || !active) return;
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
  }, [item, locale, attempt]);

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
      busy={phase !== 'promo-refused'}
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
            <PromoPrice item={item} quote={quote} period={texts.period} locale={locale} />
          </div>
          {phase === 'promo-refused' && refusal !== null ? (
            <PromoRefusal
              id={statusId}
              message={refusal}
              locale={locale}
              onWithout={() => {
                setPromotionCode(null);
                setAttempt((n) => n + 1);
              }}
              onBack={closePurchase}
            />
          ) : (
            <>
              <p id={statusId} className="payment-dialog__status" role="status">
                <span className="spinner spinner-sm" aria-hidden="true" />
                {phase === 'creating'
                  ? m.pricing_creating_session(locale)
                  : m.pricing_redirecting(locale)}
              </p>
              <p className="payment-dialog__note">{m.pricing_payment_note(locale)}</p>
            </>
          )}
        </>
      )}
    </Dialog>
  );
}
