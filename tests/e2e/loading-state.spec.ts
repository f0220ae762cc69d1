import { expect, test } from '@playwright/test';

/**
 * Spec 2: "While the stored login state is being checked, a loading screen reads '正在加载应用...'"
 * (issue 20 item 3): every view that waits for the login state shows it until it knows, and none
 * once it does. The pages' HTML is what a visitor sees before the islands run, so it is checked
 * with JavaScript off; then the same pages with JavaScript, where the text is gone.
 */
const LOADING = '正在加载应用...';
const WAITING_VIEWS = [
  ['generator', '/text-to-veo3-video'],
  ['history', '/video-history'],
  ['pricing account box', '/pricing'],
  ['blog admin', '/blog-admin'],
  ['admin', '/admin'],
] as const;

test.describe('before the login state is known', () => {
  test.use({ javaScriptEnabled: false });

  for (const [name, path] of WAITING_VIEWS) {
    test(`the ${name} shows the loading screen`, async ({ page }) => {
      await page.goto(path);
      const status = page.getByTestId('loading-screen');
      await expect(status).toHaveCount(1);
      await expect(status).toHaveAttribute('role', 'status');
      await expect(status).toHaveText(LOADING);
      await expect(status.locator('p')).toHaveAttribute('lang', 'zh-CN');
    });
  }
});

test('once the login state is known the loading screen is gone', async ({ page }) => {
  for (const [, path] of WAITING_VIEWS.filter(([name]) => name !== 'blog admin')) {
    await page.goto(path);
    await expect(page.getByTestId('loading-screen')).toHaveCount(0);
  }
});
