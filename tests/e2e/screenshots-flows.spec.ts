/**
 * Screenshots of the views a person reviews after a change to what they see (issue 20's "done
 * means", issue 21's Chinese pages): home, pricing, an effect page, the generator with a finished
 * video and the Chinese pages, at 390 px,
 * into .test-output/screenshots/flows/{name}-390.png. Only with SCREENSHOTS=1:
 *   SCREENSHOTS=1 E2E_DATA_DIR=.test-output/e2e-shots npx playwright test tests/e2e/screenshots-flows.spec.ts
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { islandReady, signInWithCredits } from '../helpers/browser.ts';
import { GENERATOR_PATH, scrollThrough, settle } from './site-pages.ts';

const OUT_DIR = path.resolve('.test-output/screenshots/flows');
const VIEWPORT = { width: 390, height: 844 };

test.skip(process.env.SCREENSHOTS !== '1', 'set SCREENSHOTS=1 to take the screenshots');
test.setTimeout(180_000);
test.use({ viewport: VIEWPORT, isMobile: true, hasTouch: true });

const shot = (name: string) => path.join(OUT_DIR, `${name}-${VIEWPORT.width}.png`);

test('public views, full length', async ({ page }) => {
  mkdirSync(OUT_DIR, { recursive: true });
  for (const [name, pagePath] of [
    ['home', '/'],
    ['pricing', '/pricing'],
    ['effects', '/video-effects'],
    ['effect-ai-french-kissing', '/ai-french-kissing'],
  ] as const) {
    await page.goto(pagePath);
    await settle(page);
    await scrollThrough(page);
    await page.screenshot({ path: shot(name), fullPage: true });
  }
});

test.describe('for a Chinese browser', () => {
  test.use({ locale: 'zh-CN' });

  test('the Chinese pages, full length', async ({ page }) => {
    mkdirSync(OUT_DIR, { recursive: true });
    for (const [name, pagePath] of [
      ['zh-home', '/zh'],
      ['zh-login', '/zh/login'],
      ['zh-refund-policy', '/zh/refund-policy'],
      ['zh-pricing', '/zh/pricing'],
      ['zh-generator', '/zh/text-to-veo3-video'],
      ['zh-effects', '/zh/video-effects'],
      ['zh-landing-asmr', '/zh/asmr-video'],
    ] as const) {
      await page.goto(pagePath);
      await settle(page);
      await scrollThrough(page);
      await page.screenshot({ path: shot(name), fullPage: true });
    }
  });
});

test('the generator with a finished video', async ({ page }) => {
  mkdirSync(OUT_DIR, { recursive: true });
  await signInWithCredits(page, { emailTag: 'shots' });

  await page.goto(GENERATOR_PATH);
  await islandReady(page, 'Generator', 20_000);
  await page.getByTestId('prompt').fill('A paper boat drifting down a rainy street at night');
  await page.getByTestId('generate-button').click();
  const panel = page.getByTestId('result-panel');
  await expect(panel).toHaveAttribute('data-state', 'success', { timeout: 90_000 });
  const video = page.getByTestId('result-video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(2);
  // One second in: a settled frame, the burned-in caption at its top.
  await video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    v.currentTime = 1;
  });
  await panel.scrollIntoViewIfNeeded();
  await settle(page);
  await page.screenshot({ path: shot('generator-result') });
  await page.screenshot({ path: shot('generator-result-full'), fullPage: true });
});
