/**
 * The pricing page's promotion code (issue 37, item 1): "Have a promotion code?" opens a small
 * form; Apply checks the code with the server (an unknown, expired, inactive or used-up code is
 * answered at once, in the page's language) and keeps it for the payment dialog, which shows the
 * price after it and sends it with the checkout. A code for plans only is checked against a plan.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { PACKS, PLANS } from '../../../shared/billing.ts';
import {
  PROMOTION_CODE_MAX_LENGTH,
  formatUsd,
  isPromotionCode,
  type PromotionQuote,
} from '../../../shared/promotions.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { quotePromotion } from '../../lib/api/promotions.ts';
import { readApiError } from '../../lib/api/http.ts';
import { $promotionCode, setPromotionCode } from '../../stores/promotion.ts';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';

const TARGET = {
  packs: m.pricing_promo_target_packs,
  plans: m.pricing_promo_target_plans,
  all: m.pricing_promo_target_all,
} as const;

/** Checks a code against the first pack, else (a plans-only code) the first plan. */
async function checkCode(code: string): Promise<PromotionQuote> {
  const pack = PACKS[0];
  const plan = PLANS[0];
  try {
    if (!pack) throw new Error('no pack to check against');
    return await quotePromotion(code, { type: 'credits', packageId: pack.id });
  } catch (error) {
    if (readApiError(error)?.code !== 'PROMOTION_CODE_NOT_APPLICABLE' || !plan) throw error;
    return quotePromotion(code, { type: 'subscription', planId: plan.id, billingCycle: 'monthly' });
  }
}

function promoSummary(quote: PromotionQuote, locale: Locale): string {
  const discount =
    quote.percent_off !== null ? `${quote.percent_off}%` : formatUsd((quote.amount_off ?? 0) * 100);
  return m.pricing_promo_applied(locale, {
    code: quote.code,
    discount,
    target: TARGET[quote.applies_to](locale),
  });
}

export default function PromoCodeField({ locale }: { locale: Locale }) {
  const code = useHydratedStore($promotionCode);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [applied, setApplied] = useState<PromotionQuote | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const formId = useId();
  const hintId = useId();
  const errorId = useId();

  // The form the focus was in is gone once the code is applied: focus moves to what replaced it.
  useEffect(() => {
    if (applied) removeRef.current?.focus();
  }, [applied]);

  const apply = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = text.trim();
    if (!isPromotionCode(typed)) {
      setError(m.pricing_promo_format(locale));
      inputRef.current?.focus();
      return;
    }
    setChecking(true);
    setError(null);
    try {
      const quote = await checkCode(typed);
      setApplied(quote);
      setPromotionCode(quote.code);
    } catch (failure) {
      const answer = readApiError(failure);
      // 4xx: the server's sentence, in the page's language; else a plain "try again".
      setError(
        answer && answer.status < 500 ? answer.message : m.pricing_promo_check_failed(locale),
      );
      inputRef.current?.focus();
    } finally {
      setChecking(false);
    }
  };

  const remove = () => {
    setPromotionCode(null);
    setApplied(null);
    setText('');
    setOpen(true);
    // The field comes back; the buyer may type another code.
    requestAnimationFrame(() => inputRef.current?.focus());
  };

  if (code && applied) {
    return (
      <div className="promo promo--applied" data-testid="promo-applied">
        <p className="promo__applied" role="status">
          {promoSummary(applied, locale)}
        </p>
        <button ref={removeRef} type="button" className="btn btn-secondary btn-sm" onClick={remove}>
          {m.pricing_promo_remove(locale)}
        </button>
      </div>
    );
  }

  return (
    <div className="promo" data-testid="promo-field">
      <button
        type="button"
        className="promo__toggle"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => {
          setOpen(!open);
          if (!open) requestAnimationFrame(() => inputRef.current?.focus());
        }}
      >
        {m.pricing_promo_toggle(locale)}
      </button>
      <form
        id={formId}
        className="promo__form"
        hidden={!open}
        onSubmit={(event) => void apply(event)}
        noValidate
      >
        <label className="promo__label" htmlFor={`${formId}-input`}>
          {m.pricing_promo_label(locale)}
        </label>
        <div className="promo__row">
          <input
            ref={inputRef}
            id={`${formId}-input`}
            className="input promo__input"
            name="promotion_code"
            value={text}
            onChange={(event) => setText(event.target.value)}
            maxLength={PROMOTION_CODE_MAX_LENGTH}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={error !== null}
            aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            data-testid="promo-input"
          />
          <button type="submit" className="btn btn-primary" disabled={checking}>
            {checking ? m.pricing_promo_checking(locale) : m.pricing_promo_apply(locale)}
          </button>
        </div>
        {error && (
          <p id={errorId} className="promo__error" role="alert" data-testid="promo-error">
            {error}
          </p>
        )}
        <p id={hintId} className="promo__hint">
          {m.pricing_promo_hint(locale)}
        </p>
      </form>
    </div>
  );
}
