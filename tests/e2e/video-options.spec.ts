/**
 * Issue 35 in the browser: the generator's Advanced options, in English and Chinese, at 390 and
 * 1280 px. Choosing 9:16, 1080p and a seed changes the price on the button; the local renderer
 * makes a real 1080×1920 clip that plays; "Extend by 7 s" continues it into one longer clip; the
 * history shows both, the extension linked to its source. With OPTION_SHOTS_DIR set, the
 * Advanced panel at 390 px is saved there as a PNG in each language.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  DEFAULT_OPTIONS,
  EXTEND_SECONDS,
  videoPrice,
  type VideoOptions,
} from '../../shared/video-options.ts';
import { islandReady, signInWithCredits } from '../helpers/browser.ts';
import { expectChineseAndFitting, overflowing } from '../helpers/i18n.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const CHOSEN: VideoOptions = {
  ...DEFAULT_OPTIONS,
  aspectRatio: '9:16',
  resolution: '1080p',
  seed: 42,
};
const EXTENSION: VideoOptions = { ...CHOSEN, seed: null, extend: true };

/** The texts each language shows; the numbers come from the one price function. */
const LANGUAGES = {
  en: {
    path: '/text-to-veo3-video',
    history: '/video-history',
    credits: (n: number) => `${n} credits`,
    generate: 'Generate Video',
    generatePriced: (n: number) => `Generate Video · ${n} credits`,
    advanced: 'Advanced',
    vertical: '9:16 vertical',
    seed: 'Seed',
    chosen: '9:16 · 1080p · Seed 42',
    extend: 'Extend by 7 s',
    extends: 'Extends:',
    seconds: (n: number) => `${n} s`,
    name: 'Maker',
    prompt: 'A lighthouse keeper climbs the spiral stairs at dusk',
    next: 'He opens the door at the top and the beam sweeps the sea',
  },
  'zh-CN': {
    path: '/zh/text-to-veo3-video',
    history: '/zh/video-history',
    credits: (n: number) => `${n} 积分`,
    generate: '生成视频',
    generatePriced: (n: number) => `生成视频 · ${n} 积分`,
    advanced: '高级设置',
    vertical: '9:16 竖屏',
    seed: '种子',
    chosen: '9:16 · 1080p · 种子 42',
    extend: '延长 7 秒',
    extends: '延长自：',
    seconds: (n: number) => `${n} 秒`,
    name: '李雷',
    prompt: '黄昏时灯塔看守人沿着螺旋楼梯往上爬',
    next: '他推开顶层的门，灯光扫过海面',
  },
} as const;
type Language = keyof typeof LANGUAGES;

/** With OPTION_SHOTS_DIR set, a PNG of `part` of the page (the header kept out of the way). */
async function shot(part: Locator, name: string) {
  const dir = process.env.OPTION_SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await part.page().addStyleTag({ content: '.site-header { position: absolute !important; }' });
  await part.screenshot({ path: path.join(dir, `${name}.png`) });
}

async function openGenerator(page: Page, language: Language) {
  await page.goto(LANGUAGES[language].path);
  await islandReady(page, 'Generator', 20_000);
}

/** Opens Advanced from the keyboard and chooses 9:16, 1080p and seed 42. */
async function chooseOptions(page: Page, language: Language) {
  const t = LANGUAGES[language];
  const summary = page.getByTestId('advanced-summary');
  await expect(summary).toContainText(t.advanced);
  await expect(page.getByTestId('advanced')).not.toHaveAttribute('open', '');
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('advanced')).toHaveAttribute('open', '');
  // The shape by keyboard: the radio group moves with the arrow keys.
  const landscape = page.getByTestId('option-aspect_ratio').getByRole('radio').first();
  await landscape.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: t.vertical })).toBeChecked();
  await page.getByRole('radio', { name: '1080p' }).check();
  await page.getByLabel(t.seed, { exact: true }).fill('42');
  await expect(summary).toContainText(t.chosen);
}

/** The result video: its picture size, its length, and that it plays. */
async function expectVideo(video: Locator, size: [number, number], seconds: number) {
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual(
    size,
  );
  const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
  expect(duration).toBeGreaterThan(seconds - 0.15);
  expect(duration).toBeLessThan(seconds + 0.15);
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    await v.play();
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime))
    .toBeGreaterThan(0.2);
  await video.evaluate((v: HTMLVideoElement) => v.pause());
}

async function waitForSuccess(page: Page) {
  const panel = page.getByTestId('result-panel');
  await expect(panel).toHaveAttribute('data-state', 'generating');
  await expect(panel).not.toHaveAttribute('data-state', 'generating', { timeout: 150_000 });
  // A failure says why (the renderer's or the server's message).
  if ((await panel.getAttribute('data-state')) === 'error') {
    expect(await panel.getByTestId('result-error').textContent()).toBe('a video');
  }
  await expect(panel).toHaveAttribute('data-state', 'success');
  return panel;
}

const cases: { language: Language; viewport: typeof PHONE; generate: boolean }[] = [
  { language: 'en', viewport: DESKTOP, generate: true },
  { language: 'zh-CN', viewport: PHONE, generate: true },
  { language: 'en', viewport: PHONE, generate: false },
  { language: 'zh-CN', viewport: DESKTOP, generate: false },
];

for (const { language, viewport, generate } of cases) {
  const t = LANGUAGES[language];
  const phone = viewport.width < 768;

  test.describe(`video options in ${language} at ${viewport.width} px`, () => {
    test.use({ viewport, isMobile: phone, hasTouch: phone, locale: language });

    test('Advanced is closed, the price follows the choice, and nothing is wider than the screen', async ({
      page,
    }) => {
      await signInWithCredits(page, { name: t.name, emailTag: `options-${language}` });
      await openGenerator(page, language);
      const button = page.getByTestId('generate-button');
      await expect(button).toHaveText(t.generate);
      await expect(page.getByTestId('credit-cost')).toHaveText(
        t.credits(videoPrice(DEFAULT_OPTIONS)),
      );
      await chooseOptions(page, language);
      const price = videoPrice(CHOSEN);
      await expect(button).toHaveText(t.generatePriced(price));
      await expect(page.getByTestId('option-cost')).toHaveText(t.credits(price));
      await expect(page.getByTestId('credit-cost')).toBeHidden();
      await expect(page.getByTestId('option-unavailable')).toHaveCount(0);
      await expect(button).toBeEnabled();
      if (language === 'zh-CN') await expectChineseAndFitting(page);
      else expect(await overflowing(page)).toEqual([]);
      // Nothing in the form is wider than its card (the priced button wraps on a phone).
      const card = page.locator('.gen-form-card');
      expect(await card.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

      if (phone) await shot(card, `generator-advanced-390-${language}`);

      // Back to the default: the spec's button and cost again.
      await page.getByRole('radio', { name: '720p' }).check();
      await page.getByTestId('option-aspect_ratio').getByRole('radio').first().check();
      await page.getByTestId('seed-random').click();
      await expect(button).toHaveText(t.generate);
      await expect(page.getByTestId('credit-cost')).toHaveText(
        t.credits(videoPrice(DEFAULT_OPTIONS)),
      );
    });

    if (!generate) return;

    test('9:16 1080p with a seed: a 1080×1920 clip that plays, extended by 7 s, both in history', async ({
      page,
    }) => {
      test.setTimeout(420_000);
      await signInWithCredits(page, { name: t.name, emailTag: `options-make-${language}` });
      await openGenerator(page, language);
      await chooseOptions(page, language);
      await page.getByTestId('prompt').fill(t.prompt);
      const button = page.getByTestId('generate-button');
      await expect(button).toHaveText(t.generatePriced(videoPrice(CHOSEN)));
      await expect(button).toBeEnabled();
      await button.click();
      const afterFirst = 330 - videoPrice(CHOSEN);
      await expect(page.getByTestId('header-credits')).toHaveAttribute(
        'aria-label',
        t.credits(afterFirst),
      );
      let panel = await waitForSuccess(page);
      await expectVideo(page.getByTestId('result-video'), [1080, 1920], 8);
      const facts = panel.getByTestId('task-facts');
      await expect(facts).toContainText(t.seconds(8));
      for (const label of t.chosen.split(' · ')) await expect(facts).toContainText(label);

      // Extend: the form continues this video, its prompt filled in, at the extension's price.
      await panel.getByTestId('extend-video').click();
      const banner = page.getByTestId('extend-banner');
      await expect(banner).toHaveAttribute('data-state', 'ready');
      await expect(banner).toContainText(t.prompt);
      await expect(page.getByTestId('prompt')).toHaveValue(t.prompt);
      await expect(page.getByTestId('result-panel')).toHaveAttribute('data-state', 'idle');
      await expect(button).toHaveText(t.generatePriced(videoPrice(EXTENSION)));
      await shot(
        page.locator('.gen-form-card'),
        `generator-extending-${viewport.width}-${language}`,
      );
      await page.getByTestId('prompt').fill(t.next);
      await expect(button).toBeEnabled();
      await button.click();
      await expect(page.getByTestId('header-credits')).toHaveAttribute(
        'aria-label',
        t.credits(afterFirst - videoPrice(EXTENSION)),
      );
      panel = await waitForSuccess(page);
      const total = 8 + EXTEND_SECONDS;
      await expectVideo(page.getByTestId('result-video'), [1080, 1920], total);
      await expect(panel.getByTestId('task-facts')).toContainText(t.seconds(total));
      await expect(panel.getByTestId('task-source')).toContainText(t.extends);
      await expect(panel.getByTestId('task-source')).toContainText(t.prompt);
      await shot(panel, `result-extended-${viewport.width}-${language}`);

      // History: the extension first, linked to its source's card.
      await page.goto(t.history);
      const items = page.getByTestId('history-item');
      await expect(items).toHaveCount(2);
      const [extension, source] = [items.nth(0), items.nth(1)];
      await expect(extension).toContainText(t.next);
      await expect(source).toContainText(t.prompt);
      const sourceId = await source.getAttribute('data-task-id');
      const link = extension.getByTestId('task-source').getByRole('link');
      await expect(link).toHaveAttribute('href', `#video-${sourceId}`);
      await expect(link).toContainText(t.prompt);
      await expect(extension.getByTestId('task-length')).toContainText(t.seconds(total));
      await expect(source.getByTestId('task-length')).toContainText(t.seconds(8));
      await link.click();
      await expect(page).toHaveURL(new RegExp(`#video-${sourceId}$`));
      await shot(page.getByTestId('history-list'), `history-${viewport.width}-${language}`);
      if (language === 'zh-CN') await expectChineseAndFitting(page, [t.prompt, t.next]);
      else expect(await overflowing(page)).toEqual([]);

      // "Generate again with these settings" fills the generator with the source's settings.
      await source.getByTestId('generate-again').click();
      await islandReady(page, 'Generator', 20_000);
      await expect(page.getByTestId('prompt')).toHaveValue(t.prompt);
      await expect(page.getByTestId('advanced')).toHaveAttribute('open', '');
      await expect(page.getByTestId('advanced-summary')).toContainText(t.chosen);
      await expect(page.getByRole('radio', { name: t.vertical })).toBeChecked();
      await expect(page.getByTestId('generate-button')).toHaveText(
        t.generatePriced(videoPrice(CHOSEN)),
      );
    });
  });
}

test.describe('the second upload of each mode', () => {
  test.use({ viewport: DESKTOP });

  test('a last frame in image mode and up to three reference images in text mode are priced', async ({
    page,
  }) => {
    const png = await sharp({
      create: { width: 320, height: 180, channels: 3, background: { r: 200, g: 60, b: 40 } },
    })
      .png()
      .toBuffer();
    const file = (name: string) => ({ name, mimeType: 'image/png', buffer: png });
    await signInWithCredits(page, { emailTag: 'options-uploads' });
    await page.goto('/text-to-veo3-video?type=image');
    await islandReady(page, 'Generator', 20_000);
    await page.getByTestId('advanced-summary').click();
    const lastFrame = page.getByTestId('last-frame');
    await expect(lastFrame).toContainText('Last frame (optional)');
    await expect(page.getByTestId('reference-images')).toHaveCount(0);
    await lastFrame.locator('input[type=file]').setInputFiles(file('end.png'));
    await expect(lastFrame.getByRole('button', { name: 'Remove image end.png' })).toBeVisible();
    const withEnd = videoPrice({ ...DEFAULT_OPTIONS, lastFrame: true });
    await expect(page.getByTestId('option-cost')).toHaveText(`${withEnd} credits`);

    await page.getByTestId('tab-text').click();
    const references = page.getByTestId('reference-images');
    await expect(references).toContainText('Reference images (up to 3)');
    const input = references.locator('input[type=file]');
    await input.setInputFiles([file('a.png'), file('b.png')]);
    await input.setInputFiles([file('c.png'), file('d.png')]);
    // Three at most: the fourth is left out and the field takes no more.
    await expect(references.getByRole('listitem')).toHaveCount(3);
    await expect(input).toBeDisabled();
    const withReferences = videoPrice({ ...DEFAULT_OPTIONS, referenceImages: 3 });
    await expect(page.getByTestId('generate-button')).toHaveText(
      `Generate Video · ${withReferences} credits`,
    );
    await references.getByRole('button', { name: 'Remove image b.png' }).click();
    await expect(references.getByRole('listitem')).toHaveCount(2);
    await expect(input).toBeEnabled();
  });
});

test("a choice no video service can make: the quote's reason shows and Generate waits", async ({
  page,
}) => {
  // The local renderer makes every option, so the refusal comes from a stand-in quote answer in
  // the API's shape (a 400 whose message names the option).
  const reason = 'No video service here can make this video with resolution = 1080p.';
  await page.route('**/api/video/quote?**', (route) =>
    new URL(route.request().url()).searchParams.get('resolution') === '1080p'
      ? route.fulfill({
          status: 400,
          json: { success: false, message: reason, code: 'OPTION_UNSUPPORTED' },
        })
      : route.continue(),
  );
  await signInWithCredits(page, { emailTag: 'options-refused' });
  await openGenerator(page, 'en');
  await page.getByTestId('advanced-summary').click();
  await page.getByRole('radio', { name: '1080p' }).check();
  await expect(page.getByTestId('option-unavailable')).toHaveText(reason);
  await expect(page.getByTestId('generate-button')).toBeDisabled();
  await page.getByRole('radio', { name: '720p' }).check();
  await page.getByRole('radio', { name: 'Fast' }).check();
  await expect(page.getByTestId('option-unavailable')).toHaveCount(0);
  await expect(page.getByTestId('generate-button')).toBeEnabled();
});
