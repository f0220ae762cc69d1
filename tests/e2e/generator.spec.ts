import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { islandReady, signInWithCredits } from '../helpers/browser.ts';

/** Opens the generator and waits until its island is live. */
async function openGenerator(page: Page, query = '') {
  await page.goto(`/text-to-veo3-video${query}`);
  await islandReady(page, 'Generator', 20_000);
}

async function expectPlayingVideo(page: Page) {
  const video = page.getByTestId('result-video');
  await expect(video).toBeVisible();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(2);
  const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
  expect(duration).toBeGreaterThan(7.9);
  expect(duration).toBeLessThan(8.1);
  const size = await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight]);
  expect(size).toEqual([1280, 720]);
}

test.describe('the generator page', () => {
  test.setTimeout(90_000);

  test('text to video: generate, play, download, and find it in history', async ({ page }) => {
    await signInWithCredits(page);
    await openGenerator(page);
    await expect(page.getByTestId('tab-text')).toHaveAttribute('aria-selected', 'true');
    await page.getByTestId('prompt').fill('A paper boat drifting down a rainy street at night');
    await page.getByTestId('generate-button').click();
    await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '313 credits');
    await expect(page.getByTestId('result-panel')).toHaveAttribute('data-state', 'generating');
    await expect(page.getByTestId('result-panel')).toHaveAttribute('data-state', 'success', {
      timeout: 60_000,
    });
    await expectPlayingVideo(page);

    const downloadPromise = page.waitForEvent('download');
    await page.getByTestId('download-button').click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/\.mp4$/);

    await page.goto('/video-history');
    const item = page.getByTestId('history-item').first();
    await expect(item).toContainText('A paper boat drifting down a rainy street at night');
    await expect(item.locator('video')).toHaveAttribute('src', /\/media\/[0-9a-f]{32}\.mp4$/);
  });

  test('image to video animates an uploaded PNG', async ({ page }) => {
    await signInWithCredits(page);
    await openGenerator(page, '?type=image');
    await expect(page.getByTestId('tab-image')).toHaveAttribute('aria-selected', 'true');
    const png = await sharp({
      create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 90, b: 220 } },
    })
      .png()
      .toBuffer();
    await page
      .getByTestId('image-upload')
      .locator('input[type=file]')
      .setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByAltText('Preview of the chosen image')).toBeVisible();
    await page.getByTestId('prompt').fill('Slow zoom into the blue sky');
    await page.getByTestId('generate-button').click();
    await expect(page.getByTestId('result-panel')).toHaveAttribute('data-state', 'success', {
      timeout: 60_000,
    });
    await expectPlayingVideo(page);
    // The picture is the upload: a frame's average colour is blue.
    const video = page.getByTestId('result-video');
    await video.evaluate(async (v: HTMLVideoElement) => {
      v.currentTime = 4;
      await new Promise((r) => v.addEventListener('seeked', r, { once: true }));
    });
    // 'seeked' can fire before the frame is decoded for painting: a canvas drawn then is
    // empty, so sample until the frame is there.
    const sample = () =>
      video.evaluate((v: HTMLVideoElement) => {
        const canvas = document.createElement('canvas');
        canvas.width = 64;
        canvas.height = 36;
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(v, 0, 0, 64, 36);
        const d = ctx.getImageData(16, 9, 32, 18).data;
        let r = 0,
          g = 0,
          b = 0;
        for (let i = 0; i < d.length; i += 4) {
          r += d[i]!;
          g += d[i + 1]!;
          b += d[i + 2]!;
        }
        return [r, g, b];
      });
    let rgb = [0, 0, 0];
    await expect
      .poll(async () => {
        rgb = await sample();
        return rgb[0]! + rgb[1]! + rgb[2]!;
      })
      .toBeGreaterThan(0);
    expect(rgb[2]!).toBeGreaterThan(rgb[0]!);
  });

  test('without enough credits the button area offers Buy Credits', async ({ page }) => {
    await signInWithCredits(page, { packs: [] });
    await openGenerator(page);
    const hint = page.getByTestId('credit-hint');
    await expect(hint).toContainText('Not enough credits (0/17)');
    await expect(hint.getByRole('link', { name: 'Buy Credits' })).toHaveAttribute(
      'href',
      '/pricing',
    );
  });

  test('logged out the button area asks to log in', async ({ page }) => {
    await openGenerator(page);
    await expect(page.getByTestId('credit-hint')).toContainText('Please login to generate videos');
  });

  test('a failed video shows the error panel and its 17 credits come back', async ({ page }) => {
    const { token } = await signInWithCredits(page);
    await openGenerator(page);
    await page.getByTestId('prompt').fill('FAIL: this one breaks on purpose');
    await page.getByTestId('generate-button').click();
    // The failure (and its refund) can come before the header shows 313, so the ledger is
    // checked below instead of the short-lived balance.
    await expect(page.getByTestId('result-panel')).toHaveAttribute('data-state', 'error', {
      timeout: 30_000,
    });
    await expect(page.getByText('Video Generation Failed')).toBeVisible();
    await expect(page.getByTestId('result-error')).toContainText('refunded');
    await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '330 credits');
    const balance = await (
      await page.request.get('/api/credits/balance', {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json();
    const kinds = balance.data.transactions.map((t: { source_type: string; amount: number }) => [
      t.source_type,
      t.amount,
    ]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['video_task', -17],
        ['refund', 17],
      ]),
    );
    await page.getByTestId('try-again').click();
    await expect(page.getByTestId('result-panel')).toHaveAttribute('data-state', 'idle');
  });
});

test('history asks a visitor to log in', async ({ page }) => {
  await page.goto('/video-history');
  await expect(page.getByTestId('history-login')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login Now' })).toHaveAttribute('href', '/login');
});
