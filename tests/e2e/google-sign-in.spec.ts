import { expect, test, type Page } from '@playwright/test';
import { headerReady, islandReady, uniqueEmail } from '../helpers/browser.ts';
import { GENERATOR_PATH } from './site-pages.ts';

/**
 * Issue 20 item 4: the Google sign-in provider serves the whole page, so every island that can
 * start a sign-in (the header's Login, the generator's login prompt, the pricing page's "please
 * login" banner) opens Google's popup in place and the visitor stays on the page they were on.
 *
 * Google is never reachable here: the page gets a client id from /api/auth/config (routed), and
 * Google's script (accounts.google.com/gsi/client) is a stand-in with the token-client surface the
 * provider uses (initTokenClient → requestAccessToken → callback / error_callback). The access
 * token it answers is checked on its way to POST /api/auth/google, which answers a real session
 * from the server (the server's own checks of Google's tokens are tests/api/auth.test.ts).
 */

const CLIENT_ID = 'e2e-client.apps.googleusercontent.com';
const ACCESS_TOKEN = 'ya29.e2e-access-token';

/** Google's script as far as the provider uses it; `window.__gisMode` picks the popup's answer. */
const FAKE_GIS = `
  window.__gis = { configs: [], requests: 0 };
  window.google = { accounts: {
    oauth2: {
      initTokenClient(config) {
        window.__gis.configs.push({ client_id: config.client_id, scope: config.scope });
        return {
          requestAccessToken() {
            window.__gis.requests += 1;
            const mode = window.__gisMode || 'grant';
            if (mode === 'blocked') return config.error_callback({ type: 'popup_failed_to_open' });
            setTimeout(() => config.callback({
              access_token: '${ACCESS_TOKEN}', token_type: 'Bearer', expires_in: 3599, scope: config.scope,
            }), 50);
          },
        };
      },
    },
    id: { initialize() {}, prompt() {}, renderButton() {}, cancel() {}, disableAutoSelect() {} },
  } };
`;

interface GoogleStandIn {
  /** How many times the page fetched Google's script. */
  scriptLoads: () => number;
  /** The `token` of every POST /api/auth/google. */
  tokens: string[];
}

async function offerGoogle(
  page: Page,
  { clientId = CLIENT_ID as string | null } = {},
): Promise<GoogleStandIn> {
  let loads = 0;
  const tokens: string[] = [];
  await page.route('**/api/auth/config', (route) =>
    route.fulfill({
      json: { success: true, data: { googleClientId: clientId, localSignIn: true } },
    }),
  );
  await page.route('https://accounts.google.com/gsi/client**', (route) => {
    loads += 1;
    return route.fulfill({ contentType: 'text/javascript', body: FAKE_GIS });
  });
  await page.route('**/api/auth/google', async (route) => {
    const body = route.request().postDataJSON() as { token?: string };
    tokens.push(body.token ?? '');
    if (body.token !== ACCESS_TOKEN)
      return route.fulfill({ status: 401, json: { success: false } });
    const session = await page.request.post('/api/auth/local', {
      data: { name: 'Grace Google', email: uniqueEmail('google') },
    });
    return route.fulfill({ response: session });
  });
  return { scriptLoads: () => loads, tokens };
}

/** The page's provider has loaded Google's script and set up its token client. */
async function googleReady(page: Page) {
  await page.waitForFunction(
    () => (window as { __gis?: { configs: unknown[] } }).__gis?.configs.length === 1,
  );
}

test('the generator login prompt signs in with Google in place', async ({ page }) => {
  const google = await offerGoogle(page);
  await page.goto(GENERATOR_PATH);
  await Promise.all([islandReady(page, 'Generator', 20_000), headerReady(page)]);
  await googleReady(page);

  const hint = page.getByTestId('credit-hint');
  await expect(hint).toContainText('Please login to generate videos');
  await hint.getByRole('link', { name: 'Login' }).click();

  // Signed in on the same page: the header shows the balance, the generator the new account's
  // balance against the cost, with the way to buy credits.
  await expect(page.getByTestId('header-credits')).toBeVisible();
  await expect(hint).toContainText(/Not enough credits \(0\/\d+\)/);
  await expect(hint.getByRole('link', { name: 'Buy Credits' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(GENERATOR_PATH);
  expect(google.tokens).toEqual([ACCESS_TOKEN]);
  const gis = await page.evaluate(() => (window as unknown as { __gis: unknown }).__gis);
  expect(gis).toEqual({
    configs: [{ client_id: CLIENT_ID, scope: expect.stringMatching(/openid profile email/) }],
    requests: 1,
  });
  // Two islands can start a sign-in here (header and generator); Google's script loads once.
  expect(google.scriptLoads()).toBe(1);
});

test("pricing's 'please login' banner signs in with Google and the plans become buyable", async ({
  page,
}) => {
  const google = await offerGoogle(page);
  await page.goto('/pricing');
  await Promise.all([islandReady(page, 'Pricing', 20_000), headerReady(page)]);
  await expect(page.locator('astro-island[component-url*="PlanAction"][ssr]')).toHaveCount(0);
  await googleReady(page);

  await page.getByRole('button', { name: /^Subscribe to Pro, billed/ }).click();
  const banner = page.locator('.pricing-banner');
  await expect(banner).toBeVisible();
  await banner.getByRole('link', { name: 'Log in' }).click();

  await expect(page.getByTestId('pricing-credits')).toBeVisible();
  await expect(page.getByTestId('header-credits')).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/pricing');
  expect(google.tokens).toEqual([ACCESS_TOKEN]);
  // Signed in, Subscribe now opens the payment dialog. The dialog sends the buyer on as soon as
  // the session exists, so the session request waits until the dialog has been seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/stripe/create-payment-intent', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: /^Subscribe to Pro, billed/ }).click();
  await expect(page.getByTestId('payment-dialog')).toBeVisible();
  release();
  await page.waitForURL(/\/checkout\/local\//);
});

test('a blocked Google popup falls back to the sign-in page', async ({ page }) => {
  await page.addInitScript(() => {
    (window as { __gisMode?: string }).__gisMode = 'blocked';
  });
  await offerGoogle(page);
  await page.goto('/');
  await headerReady(page);
  await googleReady(page);
  await page.locator('.site-header').getByRole('link', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
});

test('without a Google client id Login opens /login and Google is never loaded', async ({
  page,
}) => {
  const google = await offerGoogle(page, { clientId: null });
  await page.goto('/');
  await headerReady(page);
  await page.locator('.site-header').getByRole('link', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
  expect(google.scriptLoads()).toBe(0);
});
