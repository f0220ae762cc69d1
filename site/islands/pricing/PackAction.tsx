/**
 * A credit pack's button: neutral until the stored session is known, then 'Buy Now'. The neutral
 * button is marked not ready rather than disabled: a tap on it is replayed once it can act.
 */
import { useMemo } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { $authReady } from '../../stores/auth.ts';
import { startPurchase, type PurchaseItem } from '../../stores/subscription.ts';
import { earlyProps, useEarlyTap } from '../shared/use-early-tap.ts';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';

interface PackActionProps {
  pack: { id: string; name: string; price: number; credits: number };
  locale: Locale;
}

export default function PackAction({ pack, locale }: PackActionProps) {
  const ready = useHydratedStore($authReady);

  const item = useMemo<PurchaseItem>(
    () => ({
      type: 'credits',
      id: pack.id,
      name: pack.name,
      price: pack.price,
      credits: pack.credits,
    }),
    [pack.id, pack.name, pack.price, pack.credits],
  );

  const { live, ref } = useEarlyTap<HTMLButtonElement>(ready);

  if (!live) {
    return (
      <button
        ref={ref}
        type="button"
        className="btn btn-block plan-action plan-action--pending"
        {...earlyProps(live)}
      >
        <span className="spinner spinner-sm" aria-hidden="true" />
        <span className="sr-only">{m.pricing_loading(locale)}</span>
      </button>
    );
  }

  return (
    <button
      ref={ref}
      type="button"
      className="btn btn-secondary btn-block plan-action"
      aria-label={m.pricing_buy_pack_label(locale, { pack: pack.name })}
      onClick={() => startPurchase(item)}
    >
      {m.pricing_buy_now(locale)}
    </button>
  );
}
