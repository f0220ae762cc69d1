/**
 * The payment dialog's promotion code parts (issue 37, item 1): the price with the code taken
 * off (the list price struck through, the code and its discount beneath), and the refusal of a
 * code this item cannot take, with the two ways on.
 */
import { useEffect, useRef } from 'react';
import type { PromotionQuote } from '../../../shared/promotions.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { formatPrice } from '../../lib/format.ts';
import type { PurchaseItem } from '../../stores/subscription.ts';

export function PromoPrice({
  item,
  quote,
  period,
  locale,
}: {
  item: PurchaseItem;
  quote: PromotionQuote | null;
  period: string | null;
  locale: Locale;
}) {
  if (!quote) {
    return (
      <p className="payment-dialog__price">
        {formatPrice(item.price, locale)}
        {period && <span>{period}</span>}
      </p>
    );
  }
  return (
    <div className="payment-dialog__prices" data-testid="promo-price">
      <p className="payment-dialog__was">
        <s>{m.pricing_promo_list_price(locale, { price: formatPrice(quote.price, locale) })}</s>
      </p>
      <p className="payment-dialog__price">
        {formatPrice(quote.price_after, locale)}
        {period && <span>{period}</span>}
      </p>
      <p className="payment-dialog__discount">
        {m.pricing_promo_discount_line(locale, { code: quote.code })}{' '}
        <span>−{formatPrice(quote.discount, locale)}</span>
      </p>
    </div>
  );
}

export function PromoRefusal({
  id,
  message,
  locale,
  onWithout,
  onBack,
}: {
  id: string;
  message: string;
  locale: Locale;
  onWithout: () => void;
  onBack: () => void;
}) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <>
      <p id={id} className="payment-dialog__refusal" role="alert" data-testid="promo-refusal">
        {message}
      </p>
      <div className="pricing-dialog__actions">
        <button type="button" className="btn btn-secondary" onClick={onBack}>
          {m.pricing_promo_back(locale)}
        </button>
        <button ref={first} type="button" className="btn btn-primary" onClick={onWithout}>
          {m.pricing_promo_continue_without(locale)}
        </button>
      </div>
    </>
  );
}
