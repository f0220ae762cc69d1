import { expect, test, type Page } from '@playwright/test';

import { signInThroughApi, uniqueEmail } from '../helpers/browser.ts';

const signIn = (page: Page, name: string) =>
  signInThroughApi(page, name, uniqueEmail(name.toLowerCase()));

/** Server errors seen by the page: none are expected in these flows. */
function watchServerErrors(page: Page) {
  const errors: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 500) errors.push(`${r.status()} ${r.url()}`);
  });
  return errors;
}

test('shows the three plans and three packs with the spec prices to a visitor', async ({
  page,
}) => {
  await page.goto('/pricing');
  await expect(page).toHaveTitle(/Pricing/);
  for (const [id, price, credits] of [
    ['lite', '$29.90', '590'],
    ['pro', '$59.90', '1,340'],
    ['pro+', '$129.90', '3,370'],
  ] as const) {
    const card = page.getByTestId(`plan-${id}`);
    await expect(card).toContainText(price);
    await expect(card).toContainText(credits);
  }
  await expect(page.getByTestId('plan-pro')).toContainText('Most Popular', { ignoreCase: true });
  for (const [id, price, credits] of [
    ['starter', '$19.90', '330'],
    ['basic', '$49.90', '950'],
    ['standard', '$99.90', '2,200'],
  ] as const) {
    const card = page.getByTestId(`pack-${id}`);
    await expect(card).toContainText(price);
    await expect(card).toContainText(credits);
  }
  await expect(page.getByText(/never expire/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Buy Starter pack' }).click();
  await expect(page.getByTestId('pricing-banner')).toContainText('Please login before purchasing');
});

test('buys the Starter pack through the local checkout and the header gains 330 credits', async ({
  page,
}) => {
  const errors = watchServerErrors(page);
  await signIn(page, 'Buyer');
  await page.goto('/pricing');
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '0 credits');
  await page.getByRole('button', { name: 'Buy Starter pack' }).click();
  await page.waitForURL(/\/checkout\/local\//);
  await expect(page.getByRole('heading', { name: 'Starter credit pack' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay $19.90' }).click();
  await page.waitForURL(/\/pricing/);
  await expect(page.getByTestId('pricing-banner')).toContainText(
    'Payment successful! Your credits have been added.',
  );
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '330 credits');
  await expect(page).toHaveURL(/\/pricing$/); // the query is gone
  expect(errors).toEqual([]);
});

test('cancelling at the local checkout comes back with nothing charged', async ({ page }) => {
  await signIn(page, 'Changed');
  await page.goto('/pricing');
  await page.getByRole('button', { name: 'Buy Basic pack' }).click();
  await page.waitForURL(/\/checkout\/local\//);
  await page.getByRole('button', { name: 'Cancel and go back' }).click();
  await page.waitForURL(/\/pricing/);
  await expect(page.getByTestId('pricing-banner')).toContainText(/cancel/i);
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '0 credits');
});

test('subscribes to Lite, sees Current Plan, cancels through the dialog and is back to no subscription', async ({
  page,
}) => {
  const errors = watchServerErrors(page);
  await signIn(page, 'Subscriber');
  await page.goto('/pricing');
  await page.getByRole('button', { name: 'Subscribe to Lite' }).click();
  await page.waitForURL(/\/checkout\/local\//);
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.waitForURL(/\/pricing/);
  await expect(page.getByTestId('pricing-banner')).toContainText(
    'Payment successful! Your credits have been added.',
  );
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '590 credits');

  const lite = page.getByTestId('plan-lite');
  await expect(page.getByTestId('active-subscription')).toContainText('Lite');
  await expect(lite).toContainText('Current');
  await expect(lite.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  for (const id of ['pro', 'pro+']) {
    const button = page
      .getByTestId(`plan-${id}`)
      .getByRole('button', { name: 'Switch Plan (Cancel First)' });
    await expect(button).toBeDisabled();
  }

  await page
    .getByTestId('active-subscription')
    .getByRole('button', { name: /Cancel/ })
    .click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByTestId('active-subscription')).toHaveCount(0);
  await expect(
    page.getByTestId('plan-lite').getByRole('button', { name: 'Subscribe to Lite' }),
  ).toBeEnabled();
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '590 credits');
  expect(errors).toEqual([]);
});

test('buys Pro+ yearly: the switch shows yearly prices, checkout charges the yearly price, the box says Yearly', async ({
  page,
}) => {
  const errors = watchServerErrors(page);
  await signIn(page, 'Yearly');
  await page.goto('/pricing');
  const card = page.getByTestId('plan-pro+');
  await expect(card).toContainText('$129.90/month');
  await expect(card.getByText('$959.00', { exact: true })).toBeHidden();
  // The switch is a radio group: keyboard from Monthly to Yearly.
  const cycle = page.getByRole('group', { name: 'Billing' });
  await cycle.getByRole('radio', { name: 'Monthly' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(cycle.getByRole('radio', { name: /Yearly/ })).toBeChecked();
  await expect(card.getByText('$959.00', { exact: true })).toBeVisible();
  await expect(card).toContainText('/year');
  await expect(card).toContainText('$79.92/month, billed once a year');
  await expect(card.getByText('$129.90', { exact: true })).toBeHidden();

  await card.getByRole('button', { name: 'Subscribe to Pro+, billed yearly' }).click();
  await page.waitForURL(/\/checkout\/local\//);
  await expect(page.getByText('$959.00').first()).toBeVisible();
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.waitForURL(/\/pricing/);
  await expect(page.getByTestId('pricing-banner')).toContainText('Payment successful!');
  const box = page.getByTestId('active-subscription');
  await expect(box).toContainText('Pro+');
  await expect(box).toContainText('Yearly');
  // Credits still come monthly: the first month's 3,370.
  await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '3,370 credits');
  expect(errors).toEqual([]);
});

test.describe('pricing at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the pricing page fits the screen and the checkout works', async ({ page }) => {
    await signIn(page, 'Phone');
    await page.goto('/pricing');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    const starter = page.getByTestId('pack-starter');
    await starter.scrollIntoViewIfNeeded();
    const box = await starter.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Buy Starter pack' }).click();
    await page.waitForURL(/\/checkout\/local\//);
    await page.getByRole('button', { name: 'Pay $19.90' }).click();
    await page.waitForURL(/\/pricing/);
    await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '330 credits');
  });
});
