/**
 * Stripe adapter: hosted Checkout Sessions (mode=payment for packs, mode=subscription with
 * recurring price_data for plans), subscription cancel, and signed webhook verification.
 * Amounts come from content/plans.json through the billing service, never from the client.
 */
import Stripe from 'stripe';
import type { CheckoutProvider, PaidCheckout, ProviderSubscription } from './types.ts';

/** Stripe's tolerance for webhook timestamps, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** A test double's base URL (tests/fakes/stripe.ts); null in production. */
  apiBase: URL | null;
}

type Json = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const idOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : str((value as Json | null)?.id);
const date = (epoch: unknown): Date | null =>
  typeof epoch === 'number' ? new Date(epoch * 1000) : null;

/**
 * Reads a subscription in the current API shape (period on its items) or the older one (period
 * at the top level).
 */
export function readSubscription(object: unknown): ProviderSubscription {
  const sub = object as Json;
  const items = ((sub.items as Json | undefined)?.data as Json[] | undefined) ?? [];
  const item = items[0] ?? {};
  const start = date(item.current_period_start) ?? date(sub.current_period_start) ?? new Date();
  const end = date(item.current_period_end) ?? date(sub.current_period_end) ?? start;
  return {
    id: String(sub.id),
    status: str(sub.status) ?? 'incomplete',
    periodStart: start,
    periodEnd: end,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    canceledAt: date(sub.canceled_at),
    metadata: (sub.metadata as Record<string, string> | undefined) ?? {},
  };
}

export function createStripeClient(settings: StripeSettings): Stripe {
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(settings.apiBase
      ? {
          host: settings.apiBase.hostname,
          port: Number(
            settings.apiBase.port || (settings.apiBase.protocol === 'https:' ? 443 : 80),
          ),
          protocol: settings.apiBase.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
}

export function createStripeProvider(settings: StripeSettings) {
  const stripe = createStripeClient(settings);

  async function subscriptionOf(id: string): Promise<ProviderSubscription> {
    return readSubscription(await stripe.subscriptions.retrieve(id));
  }

  /** What a completed, paid session means for fulfillment (fetches the subscription's period). */
  async function paidCheckout(session: Json): Promise<PaidCheckout> {
    const subscriptionId = idOf(session.subscription);
    return {
      sessionId: String(session.id),
      paymentIntentId: idOf(session.payment_intent),
      invoiceId: idOf(session.invoice),
      subscription: subscriptionId ? await subscriptionOf(subscriptionId) : null,
    };
  }

  const provider: CheckoutProvider & {
    constructEvent(payload: Buffer, signature: string): Stripe.Event;
    paidCheckout(session: Json): Promise<PaidCheckout>;
  } = {
    name: 'stripe',

    async createSession(request) {
      const metadata: Record<string, string> = {
        userId: request.userId,
        kind: request.kind,
        itemId: request.itemId,
        ...(request.billingCycle ? { billingCycle: request.billingCycle } : {}),
      };
      const session = await stripe.checkout.sessions.create({
        mode: request.kind === 'subscription' ? 'subscription' : 'payment',
        client_reference_id: request.userId,
        customer_email: request.email,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency,
              unit_amount: request.amountCents,
              product_data: {
                name: request.itemName,
                description: `${request.credits.toLocaleString('en-US')} credits`,
              },
              ...(request.kind === 'subscription'
                ? { recurring: { interval: request.billingCycle === 'yearly' ? 'year' : 'month' } }
                : {}),
            },
          },
        ],
        metadata,
        ...(request.kind === 'subscription'
          ? {
              subscription_data: {
                metadata: {
                  userId: request.userId,
                  planId: request.itemId,
                  billingCycle: request.billingCycle ?? 'monthly',
                },
              },
            }
          : { payment_intent_data: { metadata } }),
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      });
      if (!session.url)
        throw new Error(`Stripe returned checkout session ${session.id} without a url`);
      return { id: session.id, url: session.url };
    },

    async retrieveSession(id) {
      const session = await stripe.checkout.sessions.retrieve(id);
      if (session.status === 'expired') return { status: 'expired' };
      if (
        session.status === 'complete' &&
        (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')
      ) {
        return { status: 'paid', paid: await paidCheckout(session as unknown as Json) };
      }
      return { status: 'open' };
    },

    async cancelSubscription(id) {
      try {
        await stripe.subscriptions.cancel(id);
      } catch (error) {
        // Already canceled at Stripe (e.g. from the dashboard): our side still records it.
        if ((error as { code?: string }).code !== 'resource_missing') throw error;
      }
    },

    constructEvent(payload, signature) {
      return stripe.webhooks.constructEvent(
        payload,
        signature,
        settings.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
      );
    },

    paidCheckout,
  };
  return provider;
}

export type StripeProvider = ReturnType<typeof createStripeProvider>;
