// @vitest-environment happy-dom
/**
 * Analytics (spec 7, issue 6 item 7): GA4 behind the visitor's consent, a no-op without a
 * measurement id. Every test loads a fresh module with its own PUBLIC_GA_MEASUREMENT_ID, as a
 * page load of a build would. What gtag.js would send is read from `window.dataLayer`; the
 * script itself is never fetched.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Window as HappyWindow } from 'happy-dom';
import { loadConfig } from '../../server/config.ts';
import type * as AnalyticsModule from '../../site/lib/analytics.ts';

type Analytics = typeof AnalyticsModule;

const ID = 'G-TEST12345';
const GTAG_SRC = `https://www.googletagmanager.com/gtag/js?id=${ID}`;

const stops: Array<() => void> = [];
let consoleError: ReturnType<typeof vi.spyOn>;
let now = 0;
let visibility: DocumentVisibilityState = 'visible';

/** happy-dom's controls of the test window: settings and the page URL. */
const happyDOM = () => (window as unknown as HappyWindow).happyDOM;

async function loadAnalytics(measurementId = ID): Promise<Analytics> {
  vi.stubEnv('PUBLIC_GA_MEASUREMENT_ID', measurementId);
  vi.resetModules();
  return import('../../site/lib/analytics.ts');
}

/** A page load: a fresh module, then what the banner's script does first. */
async function openPage(measurementId = ID): Promise<Analytics> {
  const analytics = await loadAnalytics(measurementId);
  stops.push(analytics.initAnalytics());
  return analytics;
}

/** Every gtag(...) call queued for gtag.js, as arrays. */
function gtagCalls(): unknown[][] {
  return (window.dataLayer ?? []).map((args) => Array.from(args as ArrayLike<unknown>));
}

/** The events queued for GA, as [name, params]. */
function sentEvents(): Array<[string, Record<string, unknown>]> {
  return gtagCalls()
    .filter((call) => call[0] === 'event')
    .map((call) => [call[1] as string, call[2] as Record<string, unknown>]);
}

function gtagScripts(): HTMLScriptElement[] {
  return [...document.querySelectorAll<HTMLScriptElement>('script')].filter((s) =>
    s.src.startsWith('https://www.googletagmanager.com/'),
  );
}

function setVisibility(state: DocumentVisibilityState): void {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

function cookieNames(): string[] {
  return document.cookie
    .split(';')
    .map((pair) => pair.split('=')[0]!.trim())
    .filter(Boolean);
}

beforeEach(() => {
  // gtag.js is never fetched: an injected script counts as loaded without any request.
  const settings = happyDOM().settings;
  settings.disableJavaScriptFileLoading = true;
  settings.handleDisabledFileLoadingAsSuccess = true;
  happyDOM().setURL('http://localhost:3000/pricing');
  document.title = 'Pricing | Veo3 Studio';
  localStorage.clear();
  for (const name of cookieNames())
    document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  delete window.gtag;
  delete window.dataLayer;
  for (const script of gtagScripts()) script.remove();
  now = 1_000;
  visibility = 'visible';
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('analytics with a GA4 measurement id, before the visitor chooses', () => {
  it('loads no script and sends nothing, whatever the page reports', async () => {
    const analytics = await openPage();
    analytics.trackLogin();
    analytics.trackPurchase({ value: 9.9 });
    analytics.trackGenerateVideo();
    setVisibility('hidden');

    expect(analytics.analyticsEnabled).toBe(true);
    expect(gtagScripts()).toHaveLength(0);
    expect(window.gtag).toBeUndefined();
    expect(window.dataLayer).toBeUndefined();
  });
});

describe('analytics after Accept', () => {
  it('loads gtag.js for the id, in Consent Mode v2, and sends the page view it held', async () => {
    const analytics = await openPage();
    analytics.setAnalyticsConsent('granted');

    expect(localStorage.getItem('analytics-consent')).toBe('granted');
    const scripts = gtagScripts();
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.src).toBe(GTAG_SRC);
    expect(scripts[0]!.async).toBe(true);

    const calls = gtagCalls();
    expect(calls[0]).toEqual([
      'consent',
      'default',
      {
        ad_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
        analytics_storage: 'denied',
      },
    ]);
    expect(calls[1]![0]).toBe('js');
    expect(calls[1]![1]).toBeInstanceOf(Date);
    expect(calls.slice(2)).toEqual([
      ['config', ID, { send_page_view: false }],
      ['consent', 'update', { analytics_storage: 'granted' }],
      [
        'event',
        'page_view',
        { page_location: 'http://localhost:3000/pricing', page_title: 'Pricing | Veo3 Studio' },
      ],
    ]);
  });

  it('drops the events reported before consent instead of replaying them', async () => {
    const analytics = await openPage();
    analytics.trackLogin();
    analytics.trackGenerateVideo();
    analytics.setAnalyticsConsent('granted');

    expect(sentEvents().map(([name]) => name)).toEqual(['page_view']);
  });

  it('on the next page load, loads gtag.js at once and sends that page view', async () => {
    localStorage.setItem('analytics-consent', 'granted');
    happyDOM().setURL('http://localhost:3000/blog');
    document.title = 'Blog | Veo3 Studio';
    await openPage();

    expect(gtagScripts().map((s) => s.src)).toEqual([GTAG_SRC]);
    expect(sentEvents()).toEqual([
      [
        'page_view',
        { page_location: 'http://localhost:3000/blog', page_title: 'Blog | Veo3 Studio' },
      ],
    ]);
  });

  it('keeps Stripe session ids out of page_location', async () => {
    localStorage.setItem('analytics-consent', 'granted');
    happyDOM().setURL('http://localhost:3000/pricing?payment=success&session_id=cs_test_42');
    await openPage();

    expect(sentEvents()[0]![1].page_location).toBe('http://localhost:3000/pricing?payment=success');
  });

  it('loads the script once however many events follow', async () => {
    const analytics = await openPage();
    analytics.setAnalyticsConsent('granted');
    analytics.trackLogin();
    analytics.setAnalyticsConsent('granted');
    analytics.trackGenerateVideo();

    expect(gtagScripts()).toHaveLength(1);
    expect(gtagCalls().filter((call) => call[0] === 'config')).toHaveLength(1);
  });

  it('holds for this page when the browser refuses to store the choice', async () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
    } as unknown as Storage;
    vi.spyOn(window, 'localStorage', 'get').mockReturnValue(refusing);
    const analytics = await openPage();
    analytics.setAnalyticsConsent('granted');
    analytics.trackLogin();

    expect(sentEvents().map(([name]) => name)).toEqual(['page_view', 'login']);
  });
});

describe('analytics after Decline', () => {
  it('never loads the script or sends anything, on this page or the next', async () => {
    let analytics = await openPage();
    analytics.setAnalyticsConsent('denied');
    analytics.trackLogin();
    analytics.trackSubscribe({ value: 59.9, planId: 'pro-monthly' });
    setVisibility('hidden');
    expect(localStorage.getItem('analytics-consent')).toBe('denied');

    analytics = await openPage();
    analytics.trackPurchase({ value: 9.9 });
    analytics.trackCancelSubscription('pro-monthly');

    expect(gtagScripts()).toHaveLength(0);
    expect(window.gtag).toBeUndefined();
    expect(window.dataLayer).toBeUndefined();
  });

  it('changed to Accept later on the same page: that page view is sent then', async () => {
    const analytics = await openPage();
    analytics.setAnalyticsConsent('denied');
    analytics.trackLogin();
    analytics.setAnalyticsConsent('granted');

    expect(sentEvents().map(([name]) => name)).toEqual(['page_view']);
  });

  it('withdrawn later from Cookie settings: GA is told, turned off and its cookies removed', async () => {
    const analytics = await openPage();
    analytics.setAnalyticsConsent('granted');
    document.cookie = '_ga=GA1.1.123.456; path=/';
    document.cookie = '_ga_TEST12345=GS1.1.789; path=/';
    document.cookie = 'theme=dark; path=/';

    analytics.setAnalyticsConsent('denied');
    analytics.trackLogin();

    expect(gtagCalls().at(-1)).toEqual(['consent', 'update', { analytics_storage: 'denied' }]);
    expect((window as unknown as Record<string, unknown>)[`ga-disable-${ID}`]).toBe(true);
    expect(sentEvents().map(([name]) => name)).toEqual(['page_view']);
    expect(cookieNames()).toEqual(['theme']);
  });
});

describe('spec 7 event helpers (with consent)', () => {
  it.each<[string, (a: Analytics) => void, string, Record<string, unknown>]>([
    ['trackLogin()', (a) => a.trackLogin(), 'login', { method: 'google' }],
    ["trackLogin('local')", (a) => a.trackLogin('local'), 'login', { method: 'local' }],
    [
      'trackPurchase({ value })',
      (a) => a.trackPurchase({ value: 9.9 }),
      'purchase',
      { value: 9.9, currency: 'USD' },
    ],
    [
      'trackPurchase({ value, currency, itemId })',
      (a) => a.trackPurchase({ value: 19.9, currency: 'EUR', itemId: 'pack-200' }),
      'purchase',
      {
        value: 19.9,
        currency: 'EUR',
        items: [{ item_id: 'pack-200', price: 19.9, quantity: 1 }],
      },
    ],
    [
      'trackGenerateVideo()',
      (a) => a.trackGenerateVideo(),
      'generate_video',
      { mode: 'text_to_video' },
    ],
    [
      "trackGenerateVideo('image_to_video')",
      (a) => a.trackGenerateVideo('image_to_video'),
      'generate_video',
      { mode: 'image_to_video' },
    ],
    [
      'trackSubscribe({ value, planId })',
      (a) => a.trackSubscribe({ value: 59.9, planId: 'pro-monthly' }),
      'subscribe',
      { value: 59.9, currency: 'USD', plan_id: 'pro-monthly' },
    ],
    [
      'trackCancelSubscription(planId)',
      (a) => a.trackCancelSubscription('pro-monthly'),
      'cancel_subscription',
      { plan_id: 'pro-monthly' },
    ],
    ['trackCancelSubscription()', (a) => a.trackCancelSubscription(), 'cancel_subscription', {}],
    [
      'trackEngagement(ms)',
      (a) => a.trackEngagement(1234.4),
      'user_engagement',
      { engagement_time_msec: 1234 },
    ],
  ])('%s sends %s with the spec defaults', async (_call, report, name, params) => {
    localStorage.setItem('analytics-consent', 'granted');
    const analytics = await openPage();
    report(analytics);

    expect(sentEvents().at(-1)).toEqual([name, params]);
  });
});

describe('engagement time', () => {
  it('reports the visible time as user_engagement each time the page is hidden', async () => {
    localStorage.setItem('analytics-consent', 'granted');
    await openPage();

    now = 4_000;
    setVisibility('hidden');
    now = 60_000; // hidden time does not count
    setVisibility('visible');
    now = 62_500;
    window.dispatchEvent(new Event('pagehide'));
    now = 63_000;
    setVisibility('hidden'); // fires after pagehide when a tab closes: nothing left to report

    expect(sentEvents().filter(([name]) => name === 'user_engagement')).toEqual([
      ['user_engagement', { engagement_time_msec: 3_000 }],
      ['user_engagement', { engagement_time_msec: 2_500 }],
    ]);
  });

  it('is not reported without consent', async () => {
    await openPage();
    now = 30_000;
    setVisibility('hidden');

    expect(window.dataLayer).toBeUndefined();
  });
});

describe('analytics failures', () => {
  it('a throwing gtag never breaks the action that reported the event', async () => {
    const analytics = await openPage();
    analytics.setAnalyticsConsent('granted');
    window.gtag = () => {
      throw new Error('gtag is blocked');
    };

    expect(() => {
      analytics.trackLogin();
      analytics.trackPurchase({ value: 9.9 });
      analytics.setAnalyticsConsent('denied');
    }).not.toThrow();
    expect(consoleError).toHaveBeenCalledWith(
      '[analytics] sending "login" failed',
      expect.any(Error),
    );
  });
});

describe('analytics without a measurement id', () => {
  it('is a no-op: no banner to show, no script, nothing sent even with consent', async () => {
    localStorage.setItem('analytics-consent', 'granted');
    const analytics = await openPage('');
    analytics.setAnalyticsConsent('granted');
    analytics.trackPageView();
    analytics.trackLogin();
    analytics.trackPurchase({ value: 9.9 });
    analytics.trackGenerateVideo();
    analytics.trackSubscribe({ value: 59.9 });
    analytics.trackCancelSubscription();
    analytics.trackEngagement(1_000);
    setVisibility('hidden');

    expect(analytics.analyticsEnabled).toBe(false);
    expect(gtagScripts()).toHaveLength(0);
    expect(window.gtag).toBeUndefined();
    expect(window.dataLayer).toBeUndefined();
  });
});

// The site build reads the id; the server checks its shape at boot, so a typo fails loudly.
describe('PUBLIC_GA_MEASUREMENT_ID at boot (server/config.ts)', () => {
  it.each([
    ['G-ABC123XYZ9', true],
    ['', true],
    ['UA-12345-1', false],
    ['g-abc123xyz9', false],
    ['G-ABC 123', false],
  ])('%j is accepted: %s', (id, accepted) => {
    const load = () => loadConfig({ PUBLIC_GA_MEASUREMENT_ID: id });
    if (accepted) expect(load).not.toThrow();
    else expect(load).toThrow(/PUBLIC_GA_MEASUREMENT_ID/);
  });
});
