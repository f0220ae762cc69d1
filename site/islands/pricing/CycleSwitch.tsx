/**
 * Monthly or yearly billing for the plans (issue 20 item 1). Two radio buttons (arrow keys move
 * between them, a screen reader hears "Billing, radio group"). The choice goes to $billingCycle,
 * which the plan buttons buy with, and to the plans section's `data-cycle`, which shows the
 * cards' monthly or yearly prices (static HTML: monthly until this island runs).
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

export default function CycleSwitch({ bestSaving, locale }: CycleSwitchProps) {
  const cycle = useHydratedStore($billingCycle);
  const ref = useRef<HTMLFieldSetElement>(null);
  const name = useId();

  useEffect(() => {
    const section = ref.current?.closest<HTMLElement>('[data-billing-section]');
    if (section) section.dataset.cycle = cycle;
  }, [cycle]);

  return (
    <fieldset ref={ref} className="cycle-switch" data-testid="billing-cycle">
      <legend className="sr-only">{m.pricing_billing(locale)}</legend>
      {CYCLES.map((option) => (
        <label
          key={option.value}
          className={`cycle-switch__option${cycle === option.value ? ' cycle-switch__option--on' : ''}`}
        >
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
