/**
 * The /admin dashboard (issue 7) against the real admin API: the admin signs in with the
 * ADMIN_USERNAME / ADMIN_PASSWORD that playwright.config.ts gives the server, in a browser
 * context of their own, while a customer uses the site in another.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { findPack } from '../../shared/billing.ts';
import { islandReady, signInThroughApi, uniqueEmail } from '../helpers/browser.ts';
import { LOCAL_CHECKOUT_TOKEN_FIELD, localCheckoutToken } from '../helpers/local-checkout.ts';

const ADMIN = { username: 'admin', password: 'e2e-admin-password-123' };

/**
 * The dashboard island has hydrated. Until then the page shows its pre-rendered "Checking your
 * admin session…", which can take a while on a loaded machine.
 */
const dashboardReady = (page: Page) => islandReady(page, 'AdminDashboard');

/** A fresh context (no shared storage with the customer's page) signed in at /admin. */
async function openAdmin(browser: Browser, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto('/admin');
  await dashboardReady(page);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('admin-username')).toHaveText(ADMIN.username);
  return { context, page };
}

async function openUser(admin: Page, email: string) {
  await admin
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Users' })
    .click();
  await admin.getByLabel('Search by email').fill(email);
  const row = admin.getByTestId('admin-user-row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name: email }).click();
  await expect(admin.getByRole('heading', { level: 2, name: email })).toBeVisible();
}

test('/admin is kept out of search results and shows the server message for a wrong password', async ({
  page,
}) => {
  await page.goto('/admin');
  await dashboardReady(page);
  await expect(page).toHaveTitle(/^Admin · /);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin sign-in' })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveAttribute('autocomplete', 'username');
  await expect(page.getByLabel('Password')).toHaveAttribute('autocomplete', 'current-password');

  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill('not-the-admin-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('admin-signin-error')).toHaveText('Wrong username or password.');
  // Nothing was stored: no admin session, and no user session either.
  expect(
    await page.evaluate(() => [
      sessionStorage.getItem('adminToken'),
      localStorage.getItem('authToken'),
    ]),
  ).toEqual([null, null]);
});

test('an admin adds 50 credits with a reason, the user sees them after a reload, and the audit log lists it', async ({
  page,
  browser,
}) => {
  // Two browser contexts and a dozen round trips: more than the default 30 s on a busy runner.
  test.slow();
  const email = uniqueEmail('ann');
  await signInThroughApi(page, 'Ann Credits', email);
  await page.goto('/');
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '0 credits');

  const { context, page: admin } = await openAdmin(browser);
  // The admin session is not a user session: the site's header stays signed out.
  expect(await admin.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  await expect(admin.getByRole('link', { name: 'Login' })).toBeVisible();

  await openUser(admin, email);
  await expect(admin.getByTestId('admin-user-credits')).toHaveText('0 credits');

  // The form refuses what the server would refuse, with the reason beside the field.
  await admin.getByLabel('Amount').fill('0');
  await admin.getByLabel('Reason').fill('ok');
  await admin.getByRole('button', { name: 'Adjust credits' }).click();
  await expect(admin.getByText('The amount cannot be 0')).toBeVisible();
  await expect(admin.getByText('Give a reason of at least 3 characters')).toBeVisible();
  await expect(admin.getByRole('alertdialog')).toHaveCount(0);
  await admin.getByLabel('Amount').fill('-5');
  await admin.getByLabel('Reason').fill('Taking back a test grant');
  await admin.getByRole('button', { name: 'Adjust credits' }).click();
  await expect(
    admin.getByText('This would take the balance below zero (balance 0).'),
  ).toBeVisible();

  const reason = 'Goodwill for a failed render';
  await admin.getByLabel('Amount').fill('50');
  await admin.getByLabel('Reason').fill(reason);
  await admin.getByRole('button', { name: 'Adjust credits' }).click();
  const dialog = admin.getByRole('alertdialog');
  await expect(dialog.getByRole('heading')).toHaveText(`Add 50 credits to ${email}?`);
  await expect(dialog).toContainText(`Reason: ${reason}`);
  await expect(dialog).toContainText('The balance goes from 0 credits to 50 credits.');
  // Cancel is the safe default and changes nothing.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Add 50 credits' }).click();
  await expect(admin.getByTestId('admin-action-result')).toContainText('New balance: 50 credits');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByTestId('admin-user-credits')).toHaveText('50 credits');
  await expect(admin.getByTestId('admin-ledger-row').first()).toContainText('+50');
  await expect(admin.getByTestId('admin-ledger-row').first()).toContainText(reason);

  await page.reload();
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '50 credits');

  await admin.getByRole('link', { name: 'Audit log' }).click();
  const entry = admin.getByTestId('admin-audit-row').filter({ hasText: reason });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('Adjusted credits');
  await expect(entry).toContainText(ADMIN.username);
  await expect(entry).toContainText('+50');

  await admin.getByRole('button', { name: 'Sign out' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Admin sign-in' })).toBeVisible();
  expect(await admin.evaluate(() => sessionStorage.getItem('adminToken'))).toBeNull();
  await context.close();
});

test('an admin grants blog access and the user gets Blog Admin in the header', async ({
  page,
  browser,
}) => {
  // Two browser contexts and a dozen round trips: more than the default 30 s on a busy runner.
  test.slow();
  const email = uniqueEmail('blogger');
  await signInThroughApi(page, 'Bea Blogger', email);
  await page.goto('/');
  // Signed in as the header shows it, before anything is granted.
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '0 credits');
  const nav = page.getByRole('navigation', { name: 'Main' }).first();
  await expect(nav.getByRole('link', { name: 'Blog Admin' })).toHaveCount(0);

  const { context, page: admin } = await openAdmin(browser);
  await openUser(admin, email);
  await admin.getByRole('button', { name: 'Grant blog access' }).click();
  const dialog = admin.getByRole('alertdialog');
  await expect(dialog.getByRole('heading')).toHaveText(`Grant blog access to ${email}?`);
  await dialog.getByRole('button', { name: 'Grant blog access' }).click();
  await expect(admin.getByTestId('admin-action-result')).toContainText(
    `${email} can now manage the blog.`,
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(admin.getByRole('button', { name: 'Revoke blog access' })).toBeVisible();

  await page.reload();
  await expect(nav.getByRole('link', { name: 'Blog Admin' })).toBeVisible();
  await context.close();
});

test('an ended admin session returns to the sign-in form with a notice', async ({ page }) => {
  await page.goto('/admin');
  // Once it shows the form, this first page has looked for a token and found none, so it cannot
  // race the reload for the one planted next (checking it would end it before the reload).
  await dashboardReady(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin sign-in' })).toBeVisible();
  await page.evaluate(() => sessionStorage.setItem('adminToken', 'expired-or-revoked-token'));
  await page.reload();
  await dashboardReady(page);
  await expect(page.getByTestId('admin-signin-notice')).toHaveText(
    'Your admin session ended. Please sign in again.',
  );
  expect(await page.evaluate(() => sessionStorage.getItem('adminToken'))).toBeNull();
});

test('at 390 px the dashboard fits the screen: list rows become cards, nothing scrolls sideways', async ({
  browser,
  request,
}) => {
  // A sign-in and three views in a fresh context: more than the default 30 s on a busy runner.
  test.slow();
  const email = uniqueEmail('narrow');
  await request.post('/api/auth/local', { data: { name: 'Nora Narrow', email } });
  const { context, page: admin } = await openAdmin(browser, { width: 390, height: 844 });
  const fitsTheScreen = async () =>
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

  await openUser(admin, email);
  await fitsTheScreen();
  await admin.getByRole('link', { name: 'All users' }).click();
  const row = admin.getByTestId('admin-user-row').filter({ hasText: email });
  await expect(row).toBeVisible();
  const box = await row.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  await fitsTheScreen();

  for (const section of ['Tasks', 'Audit log']) {
    await admin
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: section })
      .click();
    await expect(admin.getByRole('heading', { level: 2, name: section })).toBeVisible();
    await expect(
      admin.getByText(`Loading ${section === 'Tasks' ? 'tasks' : 'the audit log'}…`),
    ).toHaveCount(0);
    await fitsTheScreen();
  }
  await context.close();
});

/** A customer who bought the starter pack and made one video that worked and one that failed. */
async function customerWithVideos(request: APIRequestContext) {
  const signIn = await request.post('/api/auth/local', {
    data: { name: 'Cleo Charts', email: uniqueEmail('charts') },
  });
  const { data } = await signIn.json();
  const headers = { authorization: `Bearer ${data.token}` };
  const session = await request.post('/api/stripe/create-payment-intent', {
    headers,
    data: {
      type: 'credits',
      package_id: 'starter',
      success_url: '/pricing',
      cancel_url: '/pricing',
    },
  });
  const { sessionId } = await session.json();
  const checkout = await (await request.get(`/checkout/local/${sessionId}`)).text();
  const paid = await request.post(`/checkout/local/${sessionId}/pay`, {
    form: { [LOCAL_CHECKOUT_TOKEN_FIELD]: localCheckoutToken(checkout) },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
  // The local renderer fails prompts starting "FAIL:" (playwright.config.ts).
  for (const [prompt, outcome] of [
    ['A kite over a windy beach', 'completed'],
    ['FAIL: a render that breaks on purpose', 'failed'],
  ] as const) {
    const started = await request.post('/api/video/generate', {
      headers,
      multipart: { prompt, model: 'veo3' },
    });
    expect(started.status()).toBe(200);
    const { taskId } = (await started.json()).data;
    await expect
      .poll(
        async () =>
          (await (await request.get(`/api/video/status/${taskId}`, { headers })).json()).data
            .status,
        { timeout: 60_000, intervals: [500, 1000] },
      )
      .toBe(outcome);
  }
}

test('the overview charts the last 30 days: credits sold, videos, failure rate, generation time', async ({
  browser,
  request,
}) => {
  // A purchase, two renders and two dashboards. The charts' figures are cached for a minute;
  // Refresh reads them as of now.
  test.setTimeout(120_000);
  await customerWithVideos(request);

  const { context, page: admin } = await openAdmin(browser);
  const section = admin.getByRole('region', { name: 'Last 30 days' });
  const chart = (testId: string) => section.getByTestId(testId).getByRole('img');
  await expect(async () => {
    await admin.getByRole('button', { name: 'Refresh' }).click();
    await expect(chart('admin-chart-latency')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000, intervals: [1_000, 2_000] });

  const DAY = '\\d{4}-\\d{2}-\\d{2}';
  const N = '[\\d,]+';
  await expect(chart('admin-chart-credits')).toHaveAttribute(
    'aria-label',
    new RegExp(`^Credits sold per day, last 30 days: total ${N}, highest ${N} on ${DAY}$`),
  );
  await expect(chart('admin-chart-videos')).toHaveAttribute(
    'aria-label',
    new RegExp(`^Videos generated per day, last 30 days: total ${N}, highest ${N} on ${DAY}$`),
  );
  await expect(chart('admin-chart-failures')).toHaveAttribute(
    'aria-label',
    new RegExp(
      `^Failure rate per day, last 30 days: [\\d.]+% overall \\(${N} failed of ${N} finished\\), highest [\\d.]+% on ${DAY}$`,
    ),
  );
  await expect(chart('admin-chart-latency')).toHaveAttribute(
    'aria-label',
    new RegExp(
      `^Generation time per day, last 30 days: p50 .+ s, p95 highest [\\d.,]+ s on ${DAY}$`,
    ),
  );
  // The figures behind each chart, for screen readers: one row per day.
  const table = section.getByTestId('admin-chart-credits').getByRole('table');
  await expect(table).toHaveAccessibleName('Credits sold per day, last 30 days');
  await expect(table.locator('tbody tr')).toHaveCount(30);
  const total = Number(
    (
      await section.getByTestId('admin-chart-credits').locator('.admin-chart__value').innerText()
    ).replace(/\D/g, ''),
  );
  expect(total).toBeGreaterThanOrEqual(findPack('starter')!.credits);
  await context.close();

  // At 390 px the charts stack, each as wide as the screen allows, and nothing scrolls sideways.
  const narrow = await openAdmin(browser, { width: 390, height: 844 });
  const boxes = await Promise.all(
    ['admin-chart-credits', 'admin-chart-videos'].map((id) =>
      narrow.page.getByTestId(id).getByRole('img').boundingBox(),
    ),
  );
  expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height);
  expect(boxes[0]!.width).toBeGreaterThan(280);
  expect(
    await narrow.page.evaluate(() => document.documentElement.scrollWidth),
  ).toBeLessThanOrEqual(390);
  await narrow.context.close();
});

test('the audit log pages forward by cursor and back, and a short user search waits for more', async ({
  browser,
  request,
}) => {
  // 21 audited changes, then two views: more than the default 30 s on a busy runner.
  test.slow();
  const signIn = await request.post('/api/auth/local', {
    data: { name: 'Paula Pager', email: uniqueEmail('pager') },
  });
  const userId = ((await signIn.json()) as { data: { user: { id: string } } }).data.user.id;
  const { context, page: admin } = await openAdmin(browser);
  const token = await admin.evaluate(() => sessionStorage.getItem('adminToken'));
  for (let i = 1; i <= 21; i++) {
    const res = await request.post(`/api/admin/users/${userId}/credits`, {
      headers: { authorization: `Bearer ${token}` },
      data: { amount: 1, reason: `Pager grant ${i}` },
    });
    expect(res.status()).toBe(200);
  }

  await admin.getByRole('link', { name: 'Audit log' }).click();
  const pager = admin.getByRole('navigation', { name: 'Audit log pages' });
  await expect(pager).toContainText('Page 1');
  await expect(admin.getByTestId('admin-audit-row')).toHaveCount(20);
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText('Page 2');
  // Other tests may add rows meanwhile: the cursor page starts where page 1 ended all the same.
  await expect(admin.locator('#admin-audit-caption')).toContainText(
    /Admin actions, newest first: 21–\d+/,
  );
  await pager.getByRole('button', { name: 'Previous' }).click();
  await expect(pager).toContainText('Page 1');
  await expect(admin.locator('#admin-audit-caption')).toContainText(
    /Admin actions, newest first: 1–20 of \d+/,
  );

  await admin.getByRole('link', { name: 'Users' }).click();
  await admin.getByLabel('Search by email').fill('pa');
  await expect(admin.getByText('Type at least 3 characters of the email to search.')).toBeVisible();
  await admin.getByLabel('Search by email').fill('pager-');
  await expect(admin.getByText('Type at least 3 characters of the email to search.')).toHaveCount(
    0,
  );
  await expect(admin.getByTestId('admin-user-row').first()).toContainText('pager-');
  await context.close();
});
