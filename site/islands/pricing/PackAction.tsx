/** A credit pack's button: neutral until the stored session is known, then 'Buy Now'. */
import { useMemo } from 'react';
import { $authReady } from '../../stores/auth.ts';
import { startPurchase, type PurchaseItem } from '../../stores/subscription.ts';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';

interface PackActionProps {
  pack: { id: string; name: string; price: number; credits: number };
}

export default function PackAction({ pack }: PackActionProps) {
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

  if (!ready) {
    return (
      <button type="button" className="btn btn-block plan-action plan-action--pending" disabled>
        <span className="spinner spinner-sm" aria-hidden="true" />
        <span className="sr-only">Loading…</span>
      </button>
    );
  }

  return (
    <button
      type="button"
      className="btn btn-secondary btn-block plan-action"
      aria-label={`Buy ${pack.name} pack`}
      onClick={() => startPurchase(item)}
    >
      Buy Now
    </button>
  );
}
