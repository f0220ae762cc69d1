/**
 * What the customer webhooks did (issue 36, item 7), as counters on /metrics, named apart from
 * `webhook_events_total` (the webhooks Stripe and the providers send us). The admin overview
 * counts the same from the attempts and endpoints themselves (admin/overview.ts), so every
 * instance's sends are in it.
 */
import { Counter, type Registry } from 'prom-client';
import type { AttemptOutcome } from './dispatch-repository.ts';

const DELIVERIES = 'customer_webhook_deliveries_total';
const DISABLED = 'customer_webhook_endpoints_disabled_total';

/**
 * The counters on `registry`, created once per registry (a test's second dispatcher on an app's
 * registry counts into the same series instead of failing to register them again).
 */
export function webhookDispatchMetrics(registry: Registry) {
  const existing = (name: string) => registry.getSingleMetric(name) as Counter<string> | undefined;
  const deliveries =
    (existing(DELIVERIES) as Counter<'outcome'> | undefined) ??
    new Counter({
      name: DELIVERIES,
      help: 'Attempts to deliver customer webhook events, by outcome (delivered, retried later, failed for good)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
  const disabled =
    existing(DISABLED) ??
    new Counter({
      name: DISABLED,
      help: 'Customer webhook endpoints disabled (410 Gone, or failing for days)',
      registers: [registry],
    });
  return {
    attempt: (outcome: AttemptOutcome) => deliveries.inc({ outcome }),
    endpointDisabled: () => disabled.inc(),
  };
}
