import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page, type Request } from '@playwright/test';
import { GENERATOR_PATH } from './site-pages.ts';

/**
 * Analytics and its consent banner (issue 6 item 7) in a real browser.
 *
 * The e2e build has no PUBLIC_GA_MEASUREMENT_ID, so its pages must carry no banner and never
 * reach Google. The banner itself is checked on a harness page served at the app's origin with
 * the app's real CSP: the component's markup and styles, the site's global CSS, and the banner's
 * module bundled by Vite with a measurement id, as the site build would. gtag.js is replaced by
 * a stand-in that posts each queued event to the GA4 collect endpoint, as gtag.js does.
 */

const GOOGLE_HOST = /(^|\.)(googletagmanager\.com|google-analytics\.com|analytics\.google\.com)$/;
const isGoogleAnalytics = (request: Request) => GOOGLE_HOST.test(new URL(request.url()).hostname);

test.describe('the e2e build, which has no GA4 measurement id', () => {
  test('shows no banner or Cookie settings and never contacts Google Analytics', async ({
    page,
  }) => {
    const googleRequests: string[] = [];
    page.on('request', (request) => {
      if (isGoogleAnalytics(request)) googleRequests.push(request.url());
    });

    for (const path of ['/', '/pricing', GENERATOR_PATH]) {
      await page.goto(path);
      await page.waitForLoadState('load');
      await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Cookie settings' })).toHaveCount(0);
    }
    // Even a visitor who accepted on a build with analytics gets nothing from this one.
    await page.evaluate(() => localStorage.setItem('analytics-consent', 'granted'));
    await page.reload();
    await page.waitForLoadState('load');

    expect(await page.evaluate(() => typeof window.gtag)).toBe('undefined');
    expect(await page.evaluate(() => typeof window.dataLayer)).toBe('undefined');
    expect(googleRequests).toEqual([]);
  });
});

const MEASUREMENT_ID = 'G-E2EHARNESS1';
const HARNESS = '/__consent-harness';
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Stands in for gtag.js: each queued `event` goes to the collect endpoint (v=2, tid, en, dl). */
const FAKE_GTAG = `(() => {
  const tid = new URL(document.currentScript.src).searchParams.get('id');
  const send = (args) => {
    if (args[0] !== 'event') return;
    const params = args[2] || {};
    const query = new URLSearchParams({ v: '2', tid, en: args[1], dl: params.page_location || location.href });
    fetch('https://region1.google-analytics.com/g/collect?' + query, { method: 'POST', mode: 'no-cors', keepalive: true });
  };
  const layer = (window.dataLayer = window.dataLayer || []);
  for (const args of layer) send(Array.from(args));
  const push = layer.push.bind(layer);
  layer.push = (...items) => { for (const args of items) send(Array.from(args)); return push(...items); };
})();`;

const harness: Record<string, { type: string; body: string }> = {};

test.describe('the consent banner on a build with a GA4 measurement id (harness page, 390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test.beforeAll(async () => {
    const { build } = await import('vite');
    const output = await build({
      configFile: false,
      logLevel: 'silent',
      root,
      publicDir: false,
      define: { 'import.meta.env.PUBLIC_GA_MEASUREMENT_ID': JSON.stringify(MEASUREMENT_ID) },
      build: {
        write: false,
        minify: false,
        lib: { entry: 'site/lib/consent-banner.ts', formats: ['es'], fileName: 'consent' },
      },
    });
    const bundle = (Array.isArray(output) ? output[0]! : output) as {
      output: Array<{ code?: string }>;
    };

    const component = readFileSync(`${root}site/components/ConsentBanner.astro`, 'utf8');
    const markup = component.slice(component.indexOf('---', 3) + 3, component.indexOf('<script>'));
    const styles = component.slice(component.indexOf('<style>') + 7, component.indexOf('</style>'));
    // The site-wide styles the banner stands on: tokens, base and buttons.
    const globalCss = ['tokens.css', 'base.css', 'ui/buttons.css']
      .map((file) => readFileSync(`${root}site/styles/${file}`, 'utf8'))
      .join('\n');

    harness['consent.js'] = { type: 'text/javascript', body: bundle.output[0]!.code! };
    // What the component's <script> does.
    harness['main.js'] = {
      type: 'text/javascript',
      body: `import { startConsentBanner } from './consent.js';\nstartConsentBanner();\n`,
    };
    harness['pricing'] = {
      type: 'text/html',
      body: `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Pricing | harness</title>
    <style>${globalCss}</style>
    <style>${styles}</style>
  </head>
  <body>
    <main id="main" class="container">
      <h1>Pricing</h1>
      <p>Plans and credit packs for 8-second AI videos with sound.</p>
    </main>
    <footer class="site-footer">
      <button type="button" class="cookie-settings" data-consent-open>Cookie settings</button>
    </footer>
    ${markup}
    <script type="module" src="${HARNESS}/main.js"></script>
  </body>
</html>`,
    };
  });

  /** Serves the harness and the stand-ins; returns what reached Google and any CSP violation. */
  async function openHarness(page: Page) {
    // The app's own policy, so gtag.js and its hits must pass the real CSP.
    const csp = (await page.request.get('/')).headers()['content-security-policy'] ?? '';
    expect(csp).toContain('script-src');
    const scripts: string[] = [];
    const hits: URLSearchParams[] = [];
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    await page.route(`**${HARNESS}/**`, (route) => {
      const file = harness[new URL(route.request().url()).pathname.slice(HARNESS.length + 1)];
      if (!file) return route.fulfill({ status: 404 });
      return route.fulfill({
        contentType: file.type,
        body: file.body,
        headers: { 'content-security-policy': csp },
      });
    });
    await page.route(
      (url) => GOOGLE_HOST.test(url.hostname),
      (route) => {
        const url = new URL(route.request().url());
        if (url.pathname === '/gtag/js') {
          scripts.push(url.href);
          return route.fulfill({ contentType: 'text/javascript', body: FAKE_GTAG });
        }
        hits.push(url.searchParams);
        return route.fulfill({ status: 204 });
      },
    );
    await page.goto(`${HARNESS}/pricing`);
    const violations = () =>
      page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    const events = () => hits.map((hit) => hit.get('en'));
    return { scripts, hits, events, violations };
  }

  const banner = (page: Page) => page.getByRole('region', { name: 'Cookie consent' });

  test('asks on the first visit without taking focus, covering little, sending nothing', async ({
    page,
  }) => {
    const google = await openHarness(page);

    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).toContainText(
      'We use Google Analytics cookies to understand which pages help people; nothing is sent until you agree.',
    );
    await expect(banner(page).getByRole('link', { name: 'Privacy policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    const axe = await new AxeBuilder({ page }).include('[data-consent-banner]').analyze();
    expect(
      axe.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.help}`),
    ).toEqual([]);

    const box = (await banner(page).boundingBox())!;
    expect(await banner(page).evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect(box.height).toBeLessThan(844 * 0.25);
    // Equal prominence: both answers are the same size.
    const accept = (await banner(page).getByRole('button', { name: 'Accept' }).boundingBox())!;
    const decline = (await banner(page).getByRole('button', { name: 'Decline' }).boundingBox())!;
    expect(Math.round(accept.width)).toBe(Math.round(decline.width));
    expect(Math.round(accept.height)).toBe(Math.round(decline.height));

    expect(google.scripts).toEqual([]);
    expect(google.hits).toEqual([]);
  });

  test('Accept loads gtag.js for the id and sends this page view; the next load sends its own', async ({
    page,
  }) => {
    const google = await openHarness(page);
    await banner(page).getByRole('button', { name: 'Accept' }).click();

    await expect(banner(page)).toBeHidden();
    await expect.poll(google.events).toEqual(['page_view']);
    expect(google.scripts).toEqual([
      `https://www.googletagmanager.com/gtag/js?id=${MEASUREMENT_ID}`,
    ]);
    expect(google.hits[0]!.get('tid')).toBe(MEASUREMENT_ID);
    expect(google.hits[0]!.get('dl')).toMatch(/\/__consent-harness\/pricing$/);
    expect(await page.evaluate(() => localStorage.getItem('analytics-consent'))).toBe('granted');

    await page.reload();
    await expect.poll(google.events).toEqual(['page_view', 'page_view']);
    await expect(banner(page)).toBeHidden();
    expect(await google.violations()).toEqual([]);
  });

  test('Decline sends nothing, here or on the next load; Cookie settings lets the visitor change it', async ({
    page,
  }) => {
    const google = await openHarness(page);
    await banner(page).getByRole('button', { name: 'Decline' }).click();
    await expect(banner(page)).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Pricing' })).toBeVisible();
    await expect(banner(page)).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('analytics-consent'))).toBe('denied');

    const settings = page.getByRole('button', { name: 'Cookie settings' });
    await settings.click();
    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).toBeFocused();
    await expect(banner(page)).toContainText('You currently decline Google Analytics.');
    await page.keyboard.press('Escape');
    await expect(banner(page)).toBeHidden();
    await expect(settings).toBeFocused();
    expect(google.scripts).toEqual([]);
    expect(google.hits).toEqual([]);

    await settings.click();
    await banner(page).getByRole('button', { name: 'Accept' }).click();
    await expect.poll(google.events).toEqual(['page_view']);
    await expect(settings).toBeFocused();
    expect(await google.violations()).toEqual([]);
  });
});
