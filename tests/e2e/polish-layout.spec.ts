/**
 * Layout polish (issue 20 items 9 and 11), as a person sees it: the home page's length on a
 * phone and its gallery clips filling their frames, the effect cards' text on a phone, and the
 * pricing status banner clear of the page's title. Each test also writes a screenshot to
 * .test-output/screenshots/polish/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import gallery from '../../content/gallery.json' with { type: 'json' };
import home from '../../content/home.json' with { type: 'json' };
import { scrollThrough, settle } from './site-pages.ts';

const SHOTS_DIR = path.resolve('.test-output/screenshots/polish');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** Saves a screenshot where a person can look at it, and attaches it to the report. */
async function saveScreenshot(page: Page, name: string, fullPage = true) {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

const galleryRegion = (page: Page) => page.getByRole('region', { name: 'Made with Veo3 Studio' });
const galleryCards = (page: Page) => galleryRegion(page).locator('li[data-category]');

/**
 * The share of near-black pixels in a screenshot of an element: a frame whose clip fills it is
 * mostly picture, one with a letterboxed clip mostly black.
 */
async function blackShare(element: Locator): Promise<number> {
  const { data, info } = await sharp(await element.screenshot())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let black = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (data[i]! < 20 && data[i + 1]! < 20 && data[i + 2]! < 20) black += 1;
  }
  return black / (info.width * info.height);
}

/** Checks that the first gallery clip's player (and so its poster) covers its whole frame. */
async function expectClipFillsFrame(page: Page) {
  const card = galleryCards(page).first();
  await card.scrollIntoViewIfNeeded();
  await expect(card).toHaveAttribute('data-loaded', '', { timeout: 15_000 });
  const frame = card.locator('.gallery__frame');
  const iframe = card.locator('iframe');
  const frameBox = (await frame.boundingBox())!;
  const iframeBox = (await iframe.boundingBox())!;
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    expect(Math.abs(iframeBox[key] - frameBox[key]), `iframe ${key}`).toBeLessThanOrEqual(2);
  }
  const player = iframe.contentFrame().locator('video[data-sample-video]');
  await expect(player).toHaveAttribute('poster', `/samples/${gallery[0]!.id}.jpg`);
  const inside = await player.evaluate((video) => {
    const box = video.getBoundingClientRect();
    return {
      x: box.x,
      y: box.y,
      width: box.width,
      height: box.height,
      viewWidth: document.documentElement.clientWidth,
      viewHeight: document.documentElement.clientHeight,
      objectFit: getComputedStyle(video).objectFit,
    };
  });
  // Soft, so a failing run shows each way the clip misses its frame, the screenshot's included.
  expect.soft(Math.abs(inside.x), 'player x').toBeLessThanOrEqual(2);
  expect.soft(Math.abs(inside.y), 'player y').toBeLessThanOrEqual(2);
  expect.soft(Math.abs(inside.width - frameBox.width), 'player width').toBeLessThanOrEqual(2);
  expect.soft(Math.abs(inside.height - frameBox.height), 'player height').toBeLessThanOrEqual(2);
  expect.soft(Math.abs(inside.viewHeight - frameBox.height), 'frame height').toBeLessThanOrEqual(2);
  expect.soft(inside.objectFit).toBe('cover');
  // The screenshot check: once the poster has painted, the frame is picture, not black bars
  // (about 70 % black when the clip was letterboxed; the paused player's control bar shades
  // the bottom of a filled frame, up to some 15 % on a phone's short one).
  await expect.poll(() => blackShare(frame), { timeout: 10_000 }).toBeLessThan(0.3);
}

test.describe('home gallery frames', () => {
  test('at 1280 px each frame is 550 px high and its clip fills it', async ({ page }) => {
    await page.goto('/');
    await expect(galleryCards(page).first().locator('.gallery__frame')).toHaveCSS(
      'height',
      '550px',
    );
    await expectClipFillsFrame(page);
  });

  test.describe('at 390 px', () => {
    test.use(PHONE);

    test('the clip fills its shorter frame', async ({ page }) => {
      await page.goto('/');
      await expectClipFillsFrame(page);
      await saveScreenshot(page, 'home-gallery-card-390', false);
    });

    test('the loading fallback covers a frame whose clip never loads, for 3 s at most', async ({
      page,
    }) => {
      const { id } = gallery[0]!;
      // Hold the first card's embed page forever.
      await page.route(`**/embed/${id}`, () => new Promise<void>(() => {}));
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      const card = galleryCards(page).first();
      // Its frame is built as the card nears the viewport; the 3 s count from then.
      await card.scrollIntoViewIfNeeded();
      await expect(card.locator('iframe')).toHaveCount(1);
      const started = Date.now();
      const fallback = card.locator('.gallery__fallback');
      await expect(fallback).toContainText('Loading video');
      if (Date.now() - started < 2_000) {
        await expect(fallback).toBeVisible();
        const [frameBox, fallbackBox] = await Promise.all([
          card.locator('.gallery__frame').boundingBox(),
          fallback.boundingBox(),
        ]);
        expect(fallbackBox).toEqual(frameBox);
      }
      await expect(fallback).toBeHidden({ timeout: 4_000 });
      await expect(card).not.toHaveAttribute('data-loaded');
    });
  });
});

test.describe('home at 390 px', () => {
  test.use(PHONE);

  test('is under 8,000 px tall and still has every section, filter and More Videos', async ({
    page,
  }) => {
    await page.goto('/');
    await settle(page);
    await scrollThrough(page);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(8_000);

    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try Now' })).toBeVisible();
    const filters = galleryRegion(page).getByRole('group', { name: 'Filter videos by category' });
    await expect(filters.getByRole('button')).toHaveText([
      'All',
      'Animation',
      'Product',
      'Movie',
      'Talk Show',
      'Other',
    ]);
    await expect(galleryCards(page).filter({ visible: true })).toHaveCount(8);
    await expect(galleryRegion(page).getByRole('button', { name: 'More Videos' })).toBeVisible();
    for (const title of [home.features.title, home.howTo.title, home.faq.title]) {
      await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    }
    // Every feature, step and question is on the page, folded or not.
    for (const { title } of [...home.features.items, ...home.howTo.steps]) {
      await expect(page.getByRole('heading', { level: 3, name: title })).toBeAttached();
    }
    await expect(
      page.getByRole('region', { name: 'Frequently asked questions' }).locator('details'),
    ).toHaveCount(6);
    await expect(page.getByRole('link', { name: 'Create your first video' })).toBeVisible();
    await saveScreenshot(page, 'home-390');
  });
});

test.describe('effect cards at 390 px', () => {
  test.use(PHONE);

  test('show their whole category, title, description and action', async ({ page }) => {
    await page.goto('/video-effects');
    await settle(page);
    await scrollThrough(page);
    const cut = await page
      .getByTestId('effects-grid')
      .locator('.effect-card')
      .evaluateAll((cards) =>
        cards.flatMap((card) => {
          const cardBox = card.getBoundingClientRect();
          return [...card.querySelectorAll<HTMLElement>('.effect-card__body > *')]
            .filter((text) => {
              const style = getComputedStyle(text);
              const box = text.getBoundingClientRect();
              return (
                text.scrollHeight > text.clientHeight + 1 ||
                text.scrollWidth > text.clientWidth + 1 ||
                style.textOverflow === 'ellipsis' ||
                (style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '') ||
                box.right > cardBox.right + 1 ||
                box.bottom > cardBox.bottom + 1
              );
            })
            .map((text) => `${card.getAttribute('data-effect')}: ${text.className}`);
        }),
      );
    expect(cut).toEqual([]);
    await saveScreenshot(page, 'video-effects-390');
  });

  test('the French kissing effect page, for a person to look at', async ({ page }) => {
    await page.goto('/ai-french-kissing');
    await settle(page);
    await scrollThrough(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await saveScreenshot(page, 'ai-french-kissing-390');
  });
});

test.describe('pricing status banner at 390 px', () => {
  test.use(PHONE);

  test('leaves the page title and intro readable', async ({ page }) => {
    await page.goto('/pricing?payment=cancelled');
    const banner = page.getByTestId('pricing-banner');
    await expect(banner).toBeVisible();
    const [bannerBox, titleBox, leadBox] = await Promise.all([
      banner.boundingBox(),
      page.getByRole('heading', { level: 1, name: 'Pricing' }).boundingBox(),
      page.locator('.pricing-intro__lead').boundingBox(),
    ]);
    const overlaps = (a: typeof bannerBox, b: typeof bannerBox) =>
      a!.x < b!.x + b!.width &&
      b!.x < a!.x + a!.width &&
      a!.y < b!.y + b!.height &&
      b!.y < a!.y + a!.height;
    expect(overlaps(bannerBox, titleBox), 'banner over the title').toBe(false);
    expect(overlaps(bannerBox, leadBox), 'banner over the intro').toBe(false);
    // Still on screen: a toast off the viewport would be no toast at all.
    expect(bannerBox!.y).toBeGreaterThanOrEqual(0);
    expect(bannerBox!.y + bannerBox!.height).toBeLessThanOrEqual(844);
    await saveScreenshot(page, 'pricing-banner-390', false);
  });
});
