/**
 * A promotion code on the pricing page (issue 37, item 1), by keyboard: a wrong code is refused
 * with the server's reason, the right one (typed in lower case) is applied, the payment dialog
 * shows the price after it and the checkout request carries the code, and the local checkout
 * charges that price (the checkout status the purchase analytics read says it too:
 * tests/api/promotion-codes.test.ts). A code for plans only stops a pack's checkout with the
 * reason and a way on.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { islandReady, signInThroughApi, uniqueEmail } from '../helpers/browser.ts';

const ADMIN = { username: 'admin', password: 'e2e-admin-password-123' };

/** Makes a code through the admin API; its name is unique to this run. */
async function makeCode(page: Page, body: Record<string, unknown>): Promise<string> {
  const login = await page.request.post('/api/auth/admin-login', { data: ADMIN });
  const { data } = (await login.json()) as { data: { token: string } };
  const code = `${String(body.code)}-${Date.now().toString(36)}`.toUpperCase();
  const made = await page.request.post('/api/admin/promotion-codes', {
    headers: { authorization: `Bearer ${data.token}` },
    data: { ...body, code },
  });
  expect(made.status(), await made.text()).toBe(201);
  return code;
}

/** Opens the promotion code form and submits `code` with the keyboard. */
async function enterCode(page: Page, code: string) {
  const toggle = page.getByRole('button', { name: 'Have a promotion code?' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') {
    await toggle.focus();
    await page.keyboard.press('Enter');
  }
  const input = page.getByLabel('Promotion code');
  await expect(input).toBeFocused();
  await input.fill(code);
  await page.keyboard.press('Enter');
}

test('a wrong code is refused, the right one discounts the Starter pack end to end', async ({
  page,
}) => {
  const code = await makeCode(page, { code: 'E2E', percent_off: 25, applies_to: 'packs' });
  await signInThroughApi(page, 'Promo Buyer', uniqueEmail('promo'));
  await page.goto('/pricing');

  await enterCode(page, 'NO-SUCH-CODE-E2E');
  const error = page.getByTestId('promo-error');
  await expect(error).toHaveText(
    "There is no promotion code 'NO-SUCH-CODE-E2E'. Check the spelling, or continue without a code.",
  );
  await expect(page.getByLabel('Promotion code')).toHaveAttribute('aria-invalid', 'true');

  await enterCode(page, code.toLowerCase());
  const applied = page.getByTestId('promo-applied');
  await expect(applied).toContainText(`Code ${code}: 25% off credit packs.`);
  await expect(applied.getByRole('button', { name: 'Remove code' })).toBeFocused();

  // The dialog sends the buyer on as soon as the session exists: the request waits until the
  // dialog's price has been read, and carries the code and the page's language.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let request: unknown = null;
  await page.route('**/api/stripe/create-payment-intent', async (route) => {
    request = route.request().postDataJSON();
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Buy Starter pack' }).click();
  const price = page.getByTestId('payment-dialog').getByTestId('promo-price');
  await expect(price).toContainText('Was $19.90');
  await expect(price).toContainText('$14.92');
  await expect(price).toContainText(`Code ${code} −$4.98`);
  await expect.poll(() => request).toMatchObject({ promotion_code: code, locale: 'en' });
  release();
  await page.waitForURL(/\/checkout\/local\//);
  await expect(page.getByText('−$4.98')).toBeVisible();
  await page.getByRole('button', { name: 'Pay $14.92' }).click();
  await page.waitForURL(/\/pricing/);
  await expect(page.getByTestId('pricing-banner')).toContainText(
    'Payment successful! Your credits have been added.',
  );
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '330 credits');
});

test('a code for plans only stops a pack checkout with the reason, and the buyer goes on without it', async ({
  page,
}) => {
  const code = await makeCode(page, { code: 'E2E-PLANS', amount_off: 10, applies_to: 'plans' });
  await signInThroughApi(page, 'Plan Promo', uniqueEmail('promo-plans'));
  await page.goto('/pricing');
  await enterCode(page, code);
  await expect(page.getByTestId('promo-applied')).toContainText(`Code ${code}: $10.00 off plans`);

  await page.getByRole('button', { name: 'Buy Starter pack' }).click();
  const refusal = page.getByTestId('promo-refusal');
  await expect(refusal).toHaveText(
    `The promotion code '${code}' applies to plans only. Choose one of those, or continue without the code.`,
  );
  const without = page.getByRole('button', { name: 'Continue without the code' });
  await expect(without).toBeFocused();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/checkout\/local\//);
  await expect(page.getByRole('button', { name: 'Pay $19.90' })).toBeVisible();
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the field, its error and the dialog’s refusal pass axe and fit the screen', async ({
    page,
  }) => {
    const code = await makeCode(page, { code: 'E2E-AXE', percent_off: 10, applies_to: 'plans' });
    await signInThroughApi(page, 'Axe Buyer', uniqueEmail('promo-axe'));
    await page.goto('/pricing');
    await enterCode(page, 'NOT-A-CODE-AXE');
    await expect(page.getByTestId('promo-error')).toBeVisible();
    const serious = async (selector: string) =>
      (await new AxeBuilder({ page }).include(selector).analyze()).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(await serious('[data-testid="promo-field"]')).toEqual([]);
    const fits = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);

    await enterCode(page, code);
    await expect(page.getByTestId('promo-applied')).toBeVisible();
    expect(await serious('[data-testid="promo-applied"]')).toEqual([]);
    await page.getByRole('button', { name: 'Buy Starter pack' }).click();
    await expect(page.getByTestId('promo-refusal')).toBeVisible();
    expect(await serious('[data-testid="payment-dialog"]')).toEqual([]);
    expect(await fits()).toBe(true);
    // Escape closes the refused dialog: nothing was started.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('payment-dialog')).toBeHidden();
  });
});

test('the admin creates a code on the overview, sees it listed, and switches it off', async ({
  page,
}) => {
  await page.goto('/admin');
  await islandReady(page, 'AdminDashboard');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const card = page.getByTestId('admin-promotion-codes');
  await expect(card).toBeVisible();

  const code = `CARD-${Date.now().toString(36)}`.toUpperCase();
  await card.getByRole('textbox', { name: 'Code', exact: true }).fill('bad code');
  await card.getByRole('button', { name: 'Create code' }).click();
  await expect(card.getByText('3 to 32 letters, digits or dashes, e.g. SPRING-25.')).toBeVisible();
  await card.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
  await card.getByLabel('Discount').selectOption('amount');
  await card.getByLabel('Dollars').fill('4.50');
  await card.getByLabel('Applies to').selectOption('packs');
  await card.getByLabel('Uses at most (empty: no limit)').fill('5');
  await card.getByRole('button', { name: 'Create code' }).click();
  await expect(card.getByRole('status')).toHaveText(`${code} was created: $4.50 off.`);
  const row = card.getByTestId('admin-promo-row').filter({ hasText: code });
  await expect(row).toContainText('$4.50 off · Credit packs');
  await expect(row).toContainText('0 of 5');

  await row.getByRole('button', { name: `Switch off ${code}` }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Switch off' }).click();
  await expect(confirm).toContainText(`${code} is off.`);
  await confirm.getByRole('button', { name: 'Close' }).click();
  await expect(row).toContainText('Off');
  await row.getByRole('button', { name: `Uses of ${code}` }).click();
  await expect(page.getByTestId('admin-promo-uses')).toContainText('Not used yet.');
});
