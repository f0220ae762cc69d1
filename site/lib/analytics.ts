/**
 * Analytics (spec 7): the one module behind every event, so islands never touch `gtag`.
 *
 * The provider sits behind an adapter: GA4 when PUBLIC_GA_MEASUREMENT_ID is set at build time,
 * nothing otherwise. Every event waits for the visitor's consent (site/lib/consent.ts): without
 * it, events are dropped, never queued; the only exception is this page's own page view, which
 * is sent if the visitor agrees (or changes a "no" to a "yes") while still on the page.
 */
import {
  onConsentChangedElsewhere,
  readConsent,
  writeConsent,
  type ConsentChoice,
} from './consent.ts';

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

type EventParams = Record<string, unknown>;

/** What a provider does; consent rules and the spec's event names live in this module. */
export interface AnalyticsAdapter {
  /** The visitor agreed: start collecting (the first call loads the provider). */
  grant(): void;
  /** The visitor withdrew consent: stop collecting and drop the provider's identifiers. */
  revoke(): void;
  send(event: string, params: EventParams): void;
}

const noopAdapter: AnalyticsAdapter = { grant() {}, revoke() {}, send() {} };

export const GA_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';

/** GA4 through gtag.js in Consent Mode v2. Nothing is loaded or stored before `grant()`. */
export function createGa4Adapter(measurementId: string): AnalyticsAdapter {
  let loaded = false;
  // GA's documented kill switch: gtag.js sends nothing while this window property is true.
  const disableKey = `ga-disable-${measurementId}`;
  const gtag = (...args: unknown[]) => window.gtag?.(...args);

  function load(): void {
    loaded = true;
    window.dataLayer = window.dataLayer ?? [];
    window.gtag = function gtag() {
      // gtag.js reads Arguments objects from the dataLayer; an array would be ignored.
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
    // Advertising stays denied for good: the banner only asks about analytics.
    gtag('consent', 'default', {
      ad_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
      analytics_storage: 'denied',
    });
    gtag('js', new Date());
    // The site is multi-page: this module sends each page view itself (trackPageView).
    gtag('config', measurementId, { send_page_view: false });
    const script = document.createElement('script');
    script.async = true;
    script.src = `${GA_SCRIPT_URL}?id=${encodeURIComponent(measurementId)}`;
    document.head.append(script);
  }

  return {
    grant() {
      (window as unknown as Record<string, unknown>)[disableKey] = false;
      if (!loaded) load();
      gtag('consent', 'update', { analytics_storage: 'granted' });
    },
    revoke() {
      (window as unknown as Record<string, unknown>)[disableKey] = true;
      if (loaded) gtag('consent', 'update', { analytics_storage: 'denied' });
      clearGaCookies();
    },
    send(event, params) {
      gtag('event', event, params);
    },
  };
}

/** Expires GA's `_ga` and `_ga_<stream>` cookies, which it sets on the widest domain it can. */
function clearGaCookies(): void {
  const names = document.cookie
    .split(';')
    .map((pair) => pair.split('=')[0]!.trim())
    .filter((name) => name === '_ga' || name.startsWith('_ga_'));
  const expired = 'expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  const labels = window.location.hostname.split('.');
  for (const name of names) {
    document.cookie = `${name}=; ${expired}`;
    for (let i = 0; i < labels.length; i++) {
      document.cookie = `${name}=; ${expired}; domain=${labels.slice(i).join('.')}`;
    }
  }
}

const MEASUREMENT_ID = String(import.meta.env.PUBLIC_GA_MEASUREMENT_ID ?? '').trim();

/** True when the build has a GA4 measurement id: only then is there a banner to show. */
export const analyticsEnabled = MEASUREMENT_ID !== '';

const adapter: AnalyticsAdapter = analyticsEnabled ? createGa4Adapter(MEASUREMENT_ID) : noopAdapter;

let collecting = false;
/** The choice made on this page when storage refused to keep it. */
let unsavedChoice: ConsentChoice | null = null;
/** This page's view while it is not sent yet: sent if the visitor agrees while on this page. */
let unsentPageView: EventParams | null = null;

function currentConsent(): ConsentChoice | null {
  return readConsent() ?? unsavedChoice;
}

/** Analytics must never break the action that reported an event. */
function safely(what: string, run: () => void): void {
  try {
    run();
  } catch (error) {
    console.error(`[analytics] ${what} failed`, error);
  }
}

function startCollecting(): void {
  if (collecting) return;
  adapter.grant();
  collecting = true;
}

function send(event: string, params: EventParams): void {
  if (!analyticsEnabled || typeof window === 'undefined') return;
  if (currentConsent() !== 'granted') return;
  safely(`sending "${event}"`, () => {
    startCollecting();
    adapter.send(event, params);
  });
}

function applyConsent(choice: ConsentChoice): void {
  if (!analyticsEnabled) return;
  if (choice === 'granted') {
    safely('turning analytics on', startCollecting);
    const pageView = unsentPageView;
    unsentPageView = null;
    if (pageView) send('page_view', pageView);
  } else {
    collecting = false;
    safely('turning analytics off', () => adapter.revoke());
  }
}

/** Records the visitor's answer to the banner and applies it at once. */
export function setAnalyticsConsent(choice: ConsentChoice): void {
  unsavedChoice = writeConsent(choice) ? null : choice;
  applyConsent(choice);
}

// Query parameters that carry one visitor's secrets (Stripe's return, sign-in links) stay here.
const PRIVATE_PARAMS = ['session_id', 'token'];

function pageLocation(): string {
  const url = new URL(window.location.href);
  for (const name of PRIVATE_PARAMS) url.searchParams.delete(name);
  return url.href;
}

/** Page view (spec 7, on every page load): location and title of the current page. */
export function trackPageView(): void {
  if (!analyticsEnabled || typeof window === 'undefined') return;
  const params = { page_location: pageLocation(), page_title: document.title };
  if (currentConsent() === 'granted') send('page_view', params);
  else unsentPageView = params;
}

export type LoginMethod = 'google' | 'local';

/** Sign-in (spec 7: method defaults to google). */
export function trackLogin(method: LoginMethod = 'google'): void {
  send('login', { method });
}

export interface PurchaseDetails {
  value: number;
  currency?: string;
  /** The credit pack bought; GA4 reads items from `items`. */
  itemId?: string;
  /** The paid checkout's id: GA4 counts one purchase per transaction_id. */
  transactionId?: string;
}

/** A paid credit pack (spec 7: value, currency defaults to USD), sent once the payment is confirmed. */
export function trackPurchase({
  value,
  currency = 'USD',
  itemId,
  transactionId,
}: PurchaseDetails): void {
  send('purchase', {
    value,
    currency,
    ...(transactionId ? { transaction_id: transactionId } : {}),
    ...(itemId ? { items: [{ item_id: itemId, price: value, quantity: 1 }] } : {}),
  });
}

export interface SubscribeDetails {
  value: number;
  currency?: string;
  planId?: string;
  billingCycle?: 'monthly' | 'yearly';
  transactionId?: string;
}

/** A paid subscription (spec 7: subscribe), sent once the payment is confirmed. */
export function trackSubscribe({
  value,
  currency = 'USD',
  planId,
  billingCycle,
  transactionId,
}: SubscribeDetails): void {
  send('subscribe', {
    value,
    currency,
    ...(planId ? { plan_id: planId } : {}),
    ...(billingCycle ? { billing_cycle: billingCycle } : {}),
    ...(transactionId ? { transaction_id: transactionId } : {}),
  });
}

/** Cancellation of the current subscription (spec 7: cancel_subscription). */
export function trackCancelSubscription(planId?: string | null): void {
  send('cancel_subscription', planId ? { plan_id: planId } : {});
}

export type GenerateVideoMode = 'text_to_video' | 'image_to_video';

/** A video task was accepted (spec 7: mode defaults to text_to_video). */
export function trackGenerateVideo(mode: GenerateVideoMode = 'text_to_video'): void {
  send('generate_video', { mode });
}

/** Time the page was visible since the last report (spec 7: engagement time). */
export function trackEngagement(engagementTimeMsec: number): void {
  send('user_engagement', { engagement_time_msec: Math.round(engagementTimeMsec) });
}

let visibleSince: number | null = null;
let engagedMs = 0;

function reportEngagement(): void {
  if (visibleSince !== null) engagedMs += performance.now() - visibleSince;
  visibleSince = null;
  const ms = engagedMs;
  engagedMs = 0;
  // Both `visibilitychange` and `pagehide` fire when a tab closes; only the first has time.
  if (ms >= 1) trackEngagement(ms);
}

function startEngagementClock(signal: AbortSignal): void {
  if (document.visibilityState === 'visible') visibleSince = performance.now();
  document.addEventListener(
    'visibilitychange',
    () => {
      if (document.visibilityState === 'hidden') reportEngagement();
      else visibleSince ??= performance.now();
    },
    { signal },
  );
  window.addEventListener('pagehide', reportEngagement, { signal });
  // Back/forward cache: the page is shown again without loading, which is another view.
  window.addEventListener(
    'pageshow',
    (event) => {
      if (!event.persisted) return;
      if (document.visibilityState === 'visible') visibleSince ??= performance.now();
      trackPageView();
    },
    { signal },
  );
}

let started = false;

/**
 * Runs once per page load (from the consent banner): page view, engagement clock, and choices
 * made in other tabs. Returns a function that stops listening.
 */
export function initAnalytics(): () => void {
  if (!analyticsEnabled || started || typeof window === 'undefined') return () => {};
  started = true;
  const stop = new AbortController();
  trackPageView();
  startEngagementClock(stop.signal);
  const unsubscribe = onConsentChangedElsewhere((choice) => {
    if (choice) applyConsent(choice);
  });
  return () => {
    stop.abort();
    unsubscribe();
    started = false;
  };
}
