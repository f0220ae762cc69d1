/**
 * Issue 34, finding 10 in the browser: the history page's Delete asks first (a modal the keyboard
 * can leave with Escape, the safe choice focused) and then removes the video; /account, usable at
 * 390 px, lists what closing loses and closes the account after its own confirmation.
 */
import { expect, test } from '@playwright/test';
import {
  islandReady,
  signInThroughApi,
  signInWithCredits,
  uniqueEmail,
} from '../helpers/browser.ts';

test.describe('deleting a video and closing the account', () => {
  test.setTimeout(90_000);

  test('the history page deletes a video after a confirmation', async ({ page }) => {
    const { token } = await signInWithCredits(page, { emailTag: 'deleter' });
    const form = { prompt: 'A kite over the dunes at noon', model: 'veo3' };
    const started = await page.request.post('/api/video/generate', {
      headers: { authorization: `Bearer ${token}` },
      multipart: form,
    });
    expect(started.ok()).toBe(true);
    const { taskId } = (await started.json()).data as { taskId: string };
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/video/status/${taskId}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          return ((await res.json()).data as { status: string }).status;
        },
        { timeout: 60_000 },
      )
      .toBe('completed');

    await page.goto('/video-history');
    await islandReady(page, 'History', 20_000);
    const item = page.getByTestId('history-item').filter({ hasText: form.prompt });
    const resultUrl = await item.locator('video').getAttribute('src');
    await item.getByTestId('history-delete').click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this video?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Keep video' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(item.getByTestId('history-delete')).toBeFocused();

    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Delete video' }).click();
    await expect(page.getByTestId('history-notice')).toHaveText('The video was deleted.');
    await expect(item).toHaveCount(0);
    expect((await page.request.get(resultUrl!)).status()).toBe(404);
  });

  test('/account at 390 px closes a fresh local account after its warning', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInThroughApi(page, 'Closer', uniqueEmail('closer'));
    await page.goto('/zh/account');
    await expect(page.getByRole('heading', { level: 1, name: '账户设置' })).toBeVisible();
    await page.goto('/account');
    await islandReady(page, 'AccountSettings', 20_000);
    await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
    await expect(page.getByText('every video you made is deleted')).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);

    const download = page.waitForEvent('download');
    await page.getByTestId('account-export').click();
    expect((await download).suggestedFilename()).toMatch(/^account-data-.*\.json$/);

    await page.getByTestId('account-close').click();
    const dialog = page.getByRole('alertdialog', { name: 'Close your account for good?' });
    await expect(dialog.getByRole('button', { name: 'Keep my account' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Close account' }).click();
    await expect(page.getByRole('heading', { name: 'Your account is closed' })).toBeFocused();
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  });
});
