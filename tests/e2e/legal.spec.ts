import { expect, test } from '@playwright/test';

/** The three legal pages (content/legal/*.md) and their footer links (site/components/Footer). */
const pages = [
  { path: '/terms-of-service', footerLink: 'Terms', title: 'Terms of Service' },
  { path: '/privacy-policy', footerLink: 'Privacy', title: 'Privacy Policy' },
  { path: '/refund-policy', footerLink: 'Refund Policy', title: 'Refund Policy' },
];

for (const { path, footerLink, title } of pages) {
  test.describe(path, () => {
    test('is served with one h1, a canonical link and a description', async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
      expect(new URL(canonical!).pathname).toBe(path);
      expect(canonical!.endsWith(path)).toBe(true);
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description?.trim().length).toBeGreaterThan(0);
      expect(description!.length).toBeLessThanOrEqual(155);
    });

    test(`the footer link "${footerLink}" on / reaches it`, async ({ page }) => {
      await page.goto('/');
      const footer = page.getByRole('contentinfo');
      await footer.getByRole('link', { name: footerLink, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    });
  });
}

test('the refund policy states the policy numbers and has no leftover placeholder', async ({
  page,
}) => {
  await page.goto('/refund-policy');
  const main = page.locator('main');
  for (const text of ['3 days', '200 credits', '5-7 business days']) {
    await expect(main).toContainText(text);
  }
  const html = await page.content();
  expect(html).not.toContain('{{');
  expect(html).not.toMatch(/%7B%7B/i);
});
