/** Helpers for the Playwright specs: fresh accounts, signing in, waiting for an island. */
import { expect, type Page } from '@playwright/test';
import { LOCAL_CHECKOUT_TOKEN_FIELD, localCheckoutToken } from './local-checkout.ts';

/** An email no earlier run has used, so specs need no clean database. */
export const uniqueEmail = (tag: string) =>
  `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** Signs in through the local sign-in form at /login, which sends the browser home. */
export async function signInThroughForm(page: Page, name: string, email: string) {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** Opens the home page and stores a session where the site's auth store keeps it. */
export async function storeSession(page: Page, token: string, user: object) {
  await page.goto('/');
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('user', JSON.stringify(user));
      localStorage.setItem('authToken', token);
    },
    { token, user },
  );
}

/**
 * Stores a session where the site's auth store keeps it, from the smallest document of the
 * site's origin (robots.txt): the callers open the page they test next, and loading the home
 * page (its islands, its gallery) only to write two keys cost every sign-in a page load.
 */
async function keepSession(page: Page, token: string, user: object) {
  await page.goto('/robots.txt');
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('user', JSON.stringify(user));
      localStorage.setItem('authToken', token);
    },
    { token, user },
  );
}

/**
 * Signs in through the API (POST /api/auth/local) and stores the session in the browser; the
 * caller then opens the page it wants.
 */
export async function signInThroughApi(page: Page, name: string, email: string) {
  const res = await page.request.post('/api/auth/local', { data: { name, email } });
  const { data } = await res.json();
  await keepSession(page, data.token, data.user);
  return data as { token: string; user: { id: string } };
}

/** Waits until an island is interactive: Astro drops its `ssr` attribute once hydrated. */
export async function islandReady(page: Page, component: string, timeout?: number) {
  await page
    .locator(`astro-island[component-url*="${component}"]:not([ssr])`)
    .waitFor({ state: 'attached', timeout });
}

/** The header's script has run (its dropdowns open, the signed-in user shows): `data-ready`. */
export const headerReady = (page: Page) =>
  page.locator('header.site-header[data-ready]').waitFor({ state: 'attached' });

/**
 * Signs in through the API, buys credit packs through the local checkout (a starter pack is 330
 * credits) and stores the session in the browser (the caller then opens the page it wants).
 * Returns the session's token.
 */
export async function signInWithCredits(
  page: Page,
  { name = 'Maker', emailTag = 'maker', packs = ['starter'] as string[] } = {},
): Promise<{ token: string }> {
  const res = await page.request.post('/api/auth/local', {
    data: { name, email: uniqueEmail(emailTag) },
  });
  const { data } = await res.json();
  const auth = { authorization: `Bearer ${data.token}` };
  for (const pack of packs) {
    const session = await page.request.post('/api/stripe/create-payment-intent', {
      headers: auth,
      data: { type: 'credits', package_id: pack, success_url: '/pricing', cancel_url: '/pricing' },
    });
    const { sessionId } = await session.json();
    // Pay posts the checkout page's form, with its token.
    const checkout = await (await page.request.get(`/checkout/local/${sessionId}`)).text();
    const paid = await page.request.post(`/checkout/local/${sessionId}/pay`, {
      form: { [LOCAL_CHECKOUT_TOKEN_FIELD]: localCheckoutToken(checkout) },
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(303);
  }
  const me = await (await page.request.get('/api/auth/user', { headers: auth })).json();
  await keepSession(page, data.token, me.data.user);
  return { token: data.token as string };
}
