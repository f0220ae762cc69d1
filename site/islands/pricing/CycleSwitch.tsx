/**
 * Monthly or yearly billing for the plans (issue 20 item 1). Two radio buttons (arrow keys move
 * between them, a screen reader hears "Billing, radio group"). The choice goes to $billingCycle,
 * which the plan buttons buy with. The cards show the prices of the checked cycle by CSS alone
 * (CycleSwitch.css), so the switch works from the first paint, before this island runs; the
 * island then adopts a choice made meanwhile.
 */
import { useEffect, useId, useRef } from 'react';
import type { BillingCycle } from '../../../shared/billing.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { $billingCycle } from '../../stores/subscription.ts';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';

interface CycleSwitchProps {
  /** The best yearly saving of the plans, in whole percent ("save up to 20%"). */
  bestSaving: number;
  locale: Locale;
}

const CYCLES: Array<{ value: BillingCycle; label: (locale: Locale) => string }> = [
  { value: 'monthly', label: m.pricing_monthly },
  { value: 'yearly', label: m.pricing_yearly },
];

const isCycle = (value: string | undefined): value is BillingCycle =>
  CYCLES.some((cycle) => cycle.value === value);

export default function CycleSwitch({ bestSaving, locale }: CycleSwitchProps) {
  const cycle = useHydratedStore($billingCycle);
  const ref = useRef<HTMLFieldSetElement>(null);
  const name = useId();

  useEffect(() => {
    // A cycle checked before hydration (React keeps the page's checked state while hydrating).
    const checked = ref.current?.querySelector<HTMLInputElement>('input:checked')?.value;
    if (isCycle(checked) && checked !== $billingCycle.get()) $billingCycle.set(checked);
  }, []);

  return (
    <fieldset ref={ref} className="cycle-switch" data-testid="billing-cycle">
      <legend className="sr-only">{m.pricing_billing(locale)}</legend>
      {CYCLES.map((option) => (
        <label key={option.value} className="cycle-switch__option">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={cycle === option.value}
            onChange={() => $billingCycle.set(option.value)}
          />
          <span>{option.label(locale)}</span>
          {option.value === 'yearly' && (
            <span className="cycle-switch__saving">
              {m.pricing_save_up_to(locale, { percent: bestSaving })}
            </span>
          )}
        </label>
      ))}
    </fieldset>
  );
}
