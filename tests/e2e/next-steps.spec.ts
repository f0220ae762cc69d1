import { expect, test } from '@playwright/test';
import { islandReady, signInThroughApi, uniqueEmail } from '../helpers/browser.ts';

/**
 * Error states offer a next step (issue 20 item 12), not a bare message: the blog admin's list
 * that failed to load says so with Retry (it used to read 'No articles yet'), and a generation
 * refused for too few credits links to the pricing page.
 */

test('the blog admin list that fails to load says so and Retry loads it', async ({ page }) => {
  await signInThroughApi(page, 'Edith Editor', 'editor@e2e.example');
  let failing = true;
  // The list itself fails; the one-post permission check (limit=1) still answers.
  await page.route(/\/api\/blog\/admin\/posts(\?(?!limit=1\b).*)?$/, (route) =>
    failing && route.request().method() === 'GET'
      ? route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ success: false, message: 'Unavailable', code: 'UNAVAILABLE' }),
        })
      : route.fallback(),
  );
  await page.goto('/blog-admin');
  const error = page.getByTestId('blog-admin-list-error');
  await expect(error.getByRole('alert')).toContainText('The articles could not be loaded');
  await expect(page.getByText('No articles yet')).toHaveCount(0);
  failing = false;
  await error.getByRole('button', { name: 'Retry' }).click();
  await expect(error).toHaveCount(0);
  await expect(page.getByTestId('blog-admin-list')).toBeVisible();
});

test('a generation refused for too few credits offers Buy Credits', async ({ page }) => {
  await signInThroughApi(page, 'Short', uniqueEmail('short'));
  // The page believes in a balance the server no longer has (another tab spent it).
  await page.route('**/api/credits/balance', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    body.data.total_credits = 100;
    await route.fulfill({ response: res, json: body });
  });
  await page.goto('/text-to-veo3-video');
  await islandReady(page, 'Generator', 20_000);
  await page.getByTestId('prompt').fill('A lighthouse at dusk');
  await page.getByTestId('generate-button').click();
  const panel = page.getByTestId('result-panel');
  await expect(panel).toHaveAttribute('data-state', 'error');
  await expect(page.getByTestId('result-error')).toContainText('Not enough credits');
  await expect(panel.getByRole('link', { name: 'Buy Credits' })).toHaveAttribute(
    'href',
    '/pricing',
  );
  // The refusal makes the page ask for its balance again; a handler still waiting on that answer
  // when the page closes would fail the test with "Response has been disposed" (a CI flake).
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
