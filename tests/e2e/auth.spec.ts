import { expect, test } from '@playwright/test';
import { headerReady, signInThroughForm, storeSession, uniqueEmail } from '../helpers/browser.ts';

test.describe('desktop header', () => {
  test('signs in locally, shows credits and the menu, and signs out', async ({ page }) => {
    const email = uniqueEmail('ada');
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' }).first();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'History' })).toHaveCount(0);

    await page.getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signInThroughForm(page, 'Ada Lovelace', email);

    await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', /^0 credits$/);
    await expect(nav.getByRole('link', { name: 'History' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Blog Admin' })).toHaveCount(0);

    const account = page.getByRole('button', { name: 'Account menu' });
    await expect(account).toContainText('Ada Lovelace');
    await account.click();
    const banner = page.getByRole('banner');
    await expect(banner.getByText(email)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

    // An outside click closes the dropdown.
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();
    await expect(account).toHaveAttribute('aria-expanded', 'false');

    await account.click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'History' })).toHaveCount(0);
    expect(
      await page.evaluate(() => [localStorage.getItem('authToken'), localStorage.getItem('user')]),
    ).toEqual([null, null]);
  });

  test('shows the email prefix when the account has no display name', async ({ page, request }) => {
    const email = uniqueEmail('noname');
    const res = await request.post('/api/auth/local', { data: { name: 'Temp', email } });
    const { data } = await res.json();
    await storeSession(page, data.token, { ...data.user, name: null });
    // The server always has a name for local accounts: answer the balance with a nameless user.
    const nameless = { ...data.user, name: null };
    await page.route('**/api/credits/balance', (route) =>
      route.fulfill({
        json: { success: true, data: { total_credits: 0, transactions: [], user: nameless } },
      }),
    );
    await page.reload();
    await expect(page.getByRole('button', { name: 'Account menu' })).toContainText(
      email.split('@')[0]!,
    );
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test('the login page sends a signed-in visitor to /', async ({ page }) => {
    await signInThroughForm(page, 'Grace', uniqueEmail('grace'));
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
  });

  test('a revoked session is shown signed out', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => {
      localStorage.setItem(
        'user',
        JSON.stringify({ id: 'gone', email: 'gone@example.com', name: 'Gone', credits: 5 }),
      );
      localStorage.setItem('authToken', 'revoked-token-revoked-token-revoked-token-x');
    });
    await page.reload();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('an unknown path lands on / and replaces the history entry', async ({ page }) => {
    await page.goto('/');
    const before = await page.evaluate(() => history.length);
    await page.goto('/no-such-page/at-all');
    await page.waitForURL((url) => url.pathname === '/');
    // The unknown page's entry was replaced by /, not followed by a second one.
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
  });
});

/** The header island is interactive once Astro has hydrated it (it drops the ssr attribute). */

test.describe('mobile, 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('signs in, uses the full-screen menu and signs out', async ({ page }) => {
    const email = uniqueEmail('mobile');
    await page.goto('/');
    await headerReady(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'History' })).toHaveCount(0);
    await menu.getByRole('link', { name: 'Login' }).click();
    await signInThroughForm(page, 'Mo Bile', email);
    await headerReady(page);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu).toBeVisible();
    for (const link of ['Home', 'Text to Video', 'Image to Video', 'Pricing', 'Blog', 'History']) {
      await expect(menu.getByRole('link', { name: link })).toBeVisible();
    }
    await expect(menu.getByText('Mo Bile')).toBeVisible();
    await expect(menu.getByText(email)).toBeVisible();
    await expect(menu.getByLabel(/^0 credits$/)).toBeVisible();
    // The menu covers the screen.
    const box = await menu.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(389);
    // Nothing scrolls sideways at 390 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await headerReady(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog').getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('an unknown path lands on /', async ({ page }) => {
    await page.goto('/video-that-does-not-exist');
    await page.waitForURL((url) => url.pathname === '/');
  });
});
