/**
 * Subscription status and the pricing page's purchase flow (spec 4 "Subscription", "Payment
 * dialog"; 5 Purchase; 7 stripe calls; 8 Payment).
 *
 * The request and answer types come from shared/api/billing.ts; the page passes catalogue data
 * as props. Texts are messages (messages/pricing/): a banner holds its message as a function of
 * the language, and the island that shows it passes the page's.
 */
import { atom, onMount } from 'nanostores';
import type {
  PaymentRequest,
  PaymentSessionResponse,
  SubscriptionInfo,
} from '../../shared/api/billing.ts';
import { CURRENCY, type BillingCycle } from '../../shared/billing.ts';
import { localizePath, type Locale } from '../i18n/locales.ts';
import {
  pricing_already_subscribed,
  pricing_cancel_failed,
  pricing_login_required,
  pricing_payment_failed,
  pricing_session_failed,
} from '../i18n/messages.ts';
import { trackCancelSubscription } from '../lib/analytics.ts';
import {
  cancelSubscriptionNow,
  createPaymentSession,
  getSubscriptionStatus,
} from '../lib/api/billing.ts';
import { httpStatus, readApiError } from '../lib/api/http.ts';
import { $authToken, $user } from './auth.ts';

// ---------- Messages (spec 5 and 8: quoted exactly in messages/pricing/en.json) ----------

/** A text in the language it is shown in: a message, or what the server answered. */
export type LocalText = (locale: Locale) => string;

/** A server message: already in the page's language (the client sends Accept-Language). */
export const serverText =
  (text: string): LocalText =>
  () =>
    text;

/** Spec 8: "a Chinese fallback meaning cancel failed" (Chinese in every language). */
export const CANCEL_FAILED = pricing_cancel_failed('en');

/** Spec 8: success banners clear after 3 s, cancel failures after 5 s. */
export const BANNER_SHORT_MS = 3000;
export const BANNER_LONG_MS = 5000;
/** Brief: poll the checkout every 1 s, at most 15 times, after the provider sends the buyer back. */
export const CHECKOUT_POLL_INTERVAL_MS = 1000;
export const CHECKOUT_POLL_LIMIT = 15;

// ---------- Subscription status ----------

export interface ActiveSubscription {
  planId: string;
  billingCycle: BillingCycle;
  /** End of the paid period (renewal date); null when the server sent nothing usable. */
  currentPeriodEnd: Date | null;
  status: string;
  /** Ends when the period ends (cancelled in Stripe's customer portal): no renewal date. */
  cancelAtPeriodEnd: boolean;
}

export interface SubscriptionState {
  /** False until the signed-in user's first answer arrives (and while signed out). */
  loaded: boolean;
  /** The last request failed; the server still refuses a second subscription (409). */
  failed: boolean;
  subscription: ActiveSubscription | null;
}

const UNKNOWN: SubscriptionState = { loaded: false, failed: false, subscription: null };

export const $subscription = atom<SubscriptionState>(UNKNOWN);

/** Spec 3: currentPeriodEnd is epoch seconds, "a string or a date"; milliseconds are tolerated. */
function parsePeriodEnd(value: unknown): Date | null {
  let date: Date | null = null;
  if (value instanceof Date) date = value;
  else if (typeof value === 'number') date = new Date(value < 1e12 ? value * 1000 : value);
  else if (typeof value === 'string' && value.trim() !== '') {
    const numeric = Number(value);
    date = Number.isFinite(numeric)
      ? new Date(numeric < 1e12 ? numeric * 1000 : numeric)
      : new Date(value);
  }
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

type LooseSubscription = Partial<Omit<SubscriptionInfo, 'currentPeriodEnd'>> & {
  currentPeriodEnd?: unknown;
};
interface LooseStatus {
  hasActiveSubscription?: boolean;
  subscription?: LooseSubscription | null;
}

/** Spec 7: the answer holds hasActiveSubscription and subscription directly or under data. */
function readSubscriptionStatus(body: unknown): ActiveSubscription | null {
  if (typeof body !== 'object' || body === null) throw new Error('Unexpected status answer');
  const outer = body as LooseStatus & { data?: LooseStatus };
  const status = typeof outer.hasActiveSubscription === 'boolean' ? outer : (outer.data ?? {});
  if (status.hasActiveSubscription !== true || !status.subscription?.planId) return null;
  const { planId, billingCycle, currentPeriodEnd, status: state } = status.subscription;
  return {
    planId,
    billingCycle: billingCycle === 'yearly' ? 'yearly' : 'monthly',
    currentPeriodEnd: parsePeriodEnd(currentPeriodEnd),
    status: typeof state === 'string' ? state : 'active',
    cancelAtPeriodEnd: status.subscription.cancelAtPeriodEnd === true,
  };
}

let statusRequest: { userId: string; promise: Promise<void> } | null = null;

/** Fetch the signed-in user's subscription; concurrent calls share one request. */
export function refreshSubscription(): Promise<void> {
  const userId = $user.get()?.id;
  if (!userId || !$authToken.get()) {
    $subscription.set(UNKNOWN);
    return Promise.resolve();
  }
  if (statusRequest?.userId === userId) return statusRequest.promise;
  const promise = fetchSubscription(userId).finally(() => {
    if (statusRequest?.promise === promise) statusRequest = null;
  });
  statusRequest = { userId, promise };
  return promise;
}

async function fetchSubscription(userId: string): Promise<void> {
  let next: SubscriptionState;
  try {
    const body = await getSubscriptionStatus();
    next = { loaded: true, failed: false, subscription: readSubscriptionStatus(body) };
  } catch (error) {
    console.error('[subscription] status unavailable', error);
    // Keep what we knew; the server refuses a second subscription anyway.
    next = { ...$subscription.get(), loaded: true, failed: true };
  }
  // Ignore a late answer for a user who has signed out or switched accounts meanwhile.
  if ($user.get()?.id === userId) $subscription.set(next);
}

// Follow the session while anything shows the subscription: new user → load, sign-out → unknown.
onMount($subscription, () => {
  if (typeof window === 'undefined') return;
  let currentUserId: string | null = null;
  return $user.subscribe((user) => {
    const userId = user?.id ?? null;
    if (userId === currentUserId) return;
    currentUserId = userId;
    statusRequest = null;
    $subscription.set(UNKNOWN);
    if (userId) void refreshSubscription();
  });
});

/**
 * Spec 7: POST /api/stripe/subscription/cancel { immediately: true }. Resolves once cancelled;
 * the page says so with its own message (the same sentence as the answer's data.message), and a
 * refusal's message (in the page's language: the server translates it) is the error's.
 */
export async function cancelSubscription(): Promise<void> {
  const planId = $subscription.get().subscription?.planId;
  try {
    // No retry: a repeated cancel after a lost answer would only produce a confusing error.
    const body = await cancelSubscriptionNow();
    if (!body?.success) throw new Error('Cancel answer without success');
    trackCancelSubscription(planId);
    // Spec 4: cancel (immediate) → none. Show it at once; the refresh confirms.
    $subscription.set({ loaded: true, failed: false, subscription: null });
    void refreshSubscription();
  } catch (error) {
    console.error('[subscription] cancel failed', error);
    throw new Error(readApiError(error)?.message || CANCEL_FAILED, { cause: error });
  }
}

// ---------- Status banner ----------

type BannerTone = 'success' | 'info' | 'error';

export interface Banner {
  id: number;
  tone: BannerTone;
  /** The text, in the language of the island that shows it. */
  message: LocalText;
  /** Clears itself after this long; null stays until replaced (e.g. "Confirming…"). */
  durationMs: number | null;
  /** Offer a link to /login next to the message. */
  loginLink?: boolean;
  /** Language of the message when it is not English (the Chinese cancel fallback). */
  lang?: string;
}

let bannerId = 0;
export const $banner = atom<Banner | null>(null);

/** Show one message in the page's status banner, replacing any other. */
export function showBanner(banner: Omit<Banner, 'id'>): void {
  bannerId += 1;
  $banner.set({ ...banner, id: bannerId });
}

/** Remove the banner, only if it is still the one with this id (when given). */
export function clearBanner(id?: number): void {
  if (id === undefined || $banner.get()?.id === id) $banner.set(null);
}

// ---------- Purchase (payment dialog) ----------

/** What the payment dialog sells; the page fills it from the catalogue. */
/** `price` is what the checkout charges: a yearly plan's is its yearly price. */
export type PurchaseItem =
  | {
      type: 'subscription';
      id: string;
      name: string;
      price: number;
      credits: number;
      billingCycle: BillingCycle;
    }
  | { type: 'credits'; id: string; name: string; price: number; credits: number };

/**
 * The plans' billing cycle as the pricing page's switch sets it (issue 20): monthly unless the
 * buyer picks yearly, which charges the yearly price once and still adds credits every month.
 */
export const $billingCycle = atom<BillingCycle>('monthly');

/** The item in the open payment dialog, or null when it is closed. */
export const $purchase = atom<PurchaseItem | null>(null);

function isSignedIn(): boolean {
  return Boolean($authToken.get() && $user.get());
}

/** A plan or pack button was pressed: check the rules of spec 5, then open the payment dialog. */
export function startPurchase(item: PurchaseItem): void {
  if (!isSignedIn()) {
    showBanner({
      tone: 'error',
      message: pricing_login_required,
      loginLink: true,
      durationMs: BANNER_LONG_MS,
    });
    return;
  }
  if (item.type === 'subscription' && $subscription.get().subscription) {
    showBanner({
      tone: 'error',
      message: pricing_already_subscribed,
      durationMs: BANNER_LONG_MS,
    });
    return;
  }
  clearBanner();
  $purchase.set(item);
}

/** Close the payment dialog. */
export function closePurchase(): void {
  $purchase.set(null);
}

/** A checkout that could not start, with the banner text that explains it. */
export class CheckoutError extends Error {
  readonly text: LocalText;
  readonly loginLink: boolean;
  constructor(
    text: LocalText,
    { cause, loginLink = false }: { cause?: unknown; loginLink?: boolean },
  ) {
    super(text('en'), { cause });
    this.name = 'CheckoutError';
    this.text = text;
    this.loginLink = loginLink;
  }
}

function checkoutFailure(error: unknown): CheckoutError {
  const status = httpStatus(error);
  if (status === null) return new CheckoutError(pricing_payment_failed, { cause: error });
  const serverMessage = readApiError(error)?.message;
  if (status === 401) {
    return new CheckoutError(pricing_login_required, { cause: error, loginLink: true });
  }
  if (status === 409) {
    // The server knows of a subscription this page did not: show it.
    void refreshSubscription();
    const text = serverMessage ? serverText(serverMessage) : pricing_already_subscribed;
    return new CheckoutError(text, { cause: error });
  }
  // 5xx messages are generic by design (the server hides details): use the spec's wording.
  if (serverMessage && status < 500) {
    return new CheckoutError(serverText(serverMessage), { cause: error });
  }
  return new CheckoutError(pricing_session_failed, { cause: error });
}

/**
 * The hosted-checkout request for an item, a plan in the cycle the buyer chose. The buyer comes
 * back to the pricing page in the language they bought in.
 */
export function paymentRequest(
  item: PurchaseItem,
  locale: Locale = 'en',
  promotionCode: string | null = null,
): PaymentRequest {
  const page = localizePath('/pricing', locale);
  const urls = {
    // The page's language: the buyer's receipts are written in it (issue 37).
    locale,
    ...(promotionCode ? { promotion_code: promotionCode } : {}),
    // Paths: the server makes them absolute with PUBLIC_SITE_URL, never with our Host.
    // {CHECKOUT_SESSION_ID} stays literal: the payment provider fills it in on the way back.
    success_url: `${page}?payment=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${page}?payment=cancelled`,
  };
  return item.type === 'subscription'
    ? {
        type: 'subscription',
        plan_id: item.id,
        billing_cycle: item.billingCycle,
        amount: item.price,
        currency: CURRENCY,
        ...urls,
      }
    : { type: 'credits', package_id: item.id, amount: item.price, currency: CURRENCY, ...urls };
}

/**
 * Create the hosted checkout session and report it; resolves to the provider's URL.
 * Throws a CheckoutError whose text is the banner's.
 */
export async function createCheckoutSession(
  item: PurchaseItem,
  locale: Locale = 'en',
  promotionCode: string | null = null,
): Promise<string> {
  let body: Partial<PaymentSessionResponse> & { success?: boolean };
  try {
    // Money safety: never retry. A retried timeout could open two sessions for one click.
    body = await createPaymentSession(paymentRequest(item, locale, promotionCode));
  } catch (error) {
    console.error('[checkout] session not created', error);
    throw checkoutFailure(error);
  }
  if (!body?.success || typeof body.url !== 'string' || body.url === '') {
    console.error('[checkout] unusable session answer', body);
    throw new CheckoutError(pricing_session_failed, {});
  }
  // Analytics wait for the payment itself: reportConfirmedPayment, on the way back.
  return body.url;
}
