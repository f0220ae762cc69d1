import { expect, test, type Page } from '@playwright/test';
import gallery from '../../content/gallery.json' with { type: 'json' };
import { E2E_READY_SAMPLES } from './site-pages.ts';

/** The home page (spec 2 "Home gallery", 1): hero, gallery filter and paging, FAQ, embed pages. */

const galleryRegion = (page: Page) => page.getByRole('region', { name: 'Made with Veo3 Studio' });
const filters = (page: Page) => page.getByRole('group', { name: 'Filter videos by category' });
const visibleFrames = (page: Page) =>
  galleryRegion(page).locator('iframe').filter({ visible: true });
const visibleCards = (page: Page) =>
  galleryRegion(page).locator('li[data-category]').filter({ visible: true });

test('Try Now goes to the generator', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await page.getByRole('link', { name: 'Try Now' }).click();
  await page.waitForURL((url) => url.pathname === '/text-to-veo3-video');
});

test.describe('home gallery', () => {
  test('shows 8 videos, More Videos adds 4, a category resets to 4 of that category', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(filters(page).getByRole('button')).toHaveText([
      'All',
      'Animation',
      'Product',
      'Movie',
      'Talk Show',
      'Other',
    ]);
    await expect(visibleCards(page)).toHaveCount(8);
    await expect(filters(page).getByRole('button', { name: 'All' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    const more = galleryRegion(page).getByRole('button', { name: 'More Videos' });
    await more.click();
    await expect(visibleCards(page)).toHaveCount(12);
    await expect(galleryRegion(page).getByRole('status')).toHaveText('Showing 12 of 30 videos');

    for (const category of ['Product', 'Talk Show', 'Animation']) {
      await filters(page).getByRole('button', { name: category, exact: true }).click();
      const inCategory = gallery.filter((entry) => entry.category === category).length;
      await expect(visibleCards(page)).toHaveCount(Math.min(4, inCategory));
      const shown = await visibleCards(page).evaluateAll((cards) =>
        cards.map((card) => card.getAttribute('data-category')),
      );
      expect(shown.every((c) => c === category)).toBe(true);
      await expect(
        filters(page).getByRole('button', { name: category, exact: true }),
      ).toHaveAttribute('aria-pressed', 'true');
      await expect(filters(page).getByRole('button', { name: 'All' })).toHaveAttribute(
        'aria-pressed',
        'false',
      );
    }

    // More Videos within a category, until it runs out and the button goes away.
    const animation = gallery.filter((entry) => entry.category === 'Animation').length;
    await more.click();
    await expect(visibleCards(page)).toHaveCount(Math.min(8, animation));
    if (animation <= 8) await expect(more).toBeHidden();
  });

  test('each frame is 550 px high, lazy, titled with the video and its creator', async ({
    page,
  }) => {
    await page.goto('/');
    await visibleCards(page).first().scrollIntoViewIfNeeded();
    const first = visibleFrames(page).first();
    await expect(first).toHaveAttribute('loading', 'lazy');
    await expect(first).toHaveAttribute('title', `${gallery[0]!.title} by ${gallery[0]!.creator}`);
    const box = await first.boundingBox();
    expect(box?.height).toBe(550);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('a shown card gets its frame as it nears the viewport; hidden cards get none', async ({
      page,
    }) => {
      // Every frame in the markup is a browsing context set up while parsing, even a lazy one:
      // the first screen (the hero) loads with none, and each is built on the way down.
      await page.goto('/');
      await page.waitForFunction(() => customElements.get('video-gallery') !== undefined);
      const cards = visibleCards(page);
      await expect(cards).toHaveCount(8);
      await expect(cards.nth(7).locator('iframe')).toHaveCount(0);
      await expect(cards.nth(7)).toHaveAttribute('data-waiting', '');
      for (let i = 0; i < 8; i++) {
        await cards.nth(i).scrollIntoViewIfNeeded();
        await expect(cards.nth(i).locator('iframe')).toHaveCount(1);
      }
      await expect(galleryRegion(page).locator('iframe')).toHaveCount(8);
      await galleryRegion(page).getByRole('button', { name: 'More Videos' }).click();
      await expect(cards).toHaveCount(12);
      await cards.nth(11).scrollIntoViewIfNeeded();
      await expect(galleryRegion(page).locator('iframe')).toHaveCount(12);
      await expect(visibleFrames(page)).toHaveCount(12);
    });

    test('the 3 s loading fallback counts from when the frame is built', async ({ page }) => {
      const { id } = gallery[7]!;
      // Hold the eighth card's embed page forever.
      await page.route(`**/embed/${id}`, () => new Promise<void>(() => {}));
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => customElements.get('video-gallery') !== undefined);
      const card = visibleCards(page).nth(7);
      const fallback = card.locator('.gallery__fallback');
      await expect(card).toHaveAttribute('data-waiting', '');
      // A card far down says it is loading, with no 3 s count running yet: the fallback's
      // hiding animation is off until the frame exists.
      const fallbackStyle = () =>
        fallback.evaluate((el) => {
          const style = getComputedStyle(el);
          return { animation: style.animationName, visibility: style.visibility };
        });
      expect(await fallbackStyle()).toEqual({ animation: 'none', visibility: 'visible' });
      await card.scrollIntoViewIfNeeded();
      await expect(card.locator('iframe')).toHaveCount(1);
      await expect(card).not.toHaveAttribute('data-waiting');
      expect((await fallbackStyle()).animation).not.toBe('none');
      await expect(fallback).toBeVisible();
      await expect(fallback).toContainText('Loading video');
      await expect(fallback).toBeHidden({ timeout: 4_000 });
      await expect(card).not.toHaveAttribute('data-loaded');
    });
  });

  test('the loading fallback hides when the frame loads', async ({ page }) => {
    await page.goto('/');
    const card = galleryRegion(page).locator('li[data-category]').first();
    // The frames are built near the viewport: bring the first one into view, and allow a slow
    // machine its time.
    await card.scrollIntoViewIfNeeded();
    await expect(card).toHaveAttribute('data-loaded', '', { timeout: 15_000 });
    await expect(card.locator('.gallery__fallback')).toBeHidden();
  });

  test('the loading fallback shows for at most 3 s when a frame never loads', async ({ page }) => {
    const { id } = gallery[1]!;
    // Hold the second card's embed page forever.
    await page.route(`**/embed/${id}`, () => new Promise<void>(() => {}));
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const card = galleryRegion(page).locator('li[data-category]').nth(1);
    const started = Date.now();
    await card.scrollIntoViewIfNeeded();
    await expect(card.locator('iframe')).toHaveCount(1);
    const fallback = card.locator('.gallery__fallback');
    if (Date.now() - started < 2_000) await expect(fallback).toBeVisible();
    await expect(fallback).toContainText('Loading video');
    await expect(fallback).toBeHidden({ timeout: 4_000 });
    await expect(card).not.toHaveAttribute('data-loaded');
  });
});

test.describe('home FAQ', () => {
  test('opening one question closes the other', async ({ page }) => {
    await page.goto('/');
    await expectOneOpenAtATime(page);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('still opens one question at a time', async ({ page }) => {
      await page.goto('/');
      await expectOneOpenAtATime(page);
    });

    test('shows every gallery video, with no controls that cannot work', async ({ page }) => {
      await page.goto('/');
      await expect(visibleFrames(page)).toHaveCount(gallery.length);
      await expect(filters(page)).toBeHidden();
    });
  });
});

async function expectOneOpenAtATime(page: Page) {
  const faq = page.getByRole('region', { name: 'Frequently asked questions' });
  const items = faq.locator('details');
  await expect(items).toHaveCount(6);
  await expect(items.nth(0)).toHaveAttribute('open', '');
  // The second question is about the price of a video.
  await faq.locator('summary').nth(1).click();
  await expect(items.nth(1)).toHaveAttribute('open', '');
  await expect(items.nth(0)).not.toHaveAttribute('open');
  await expect(faq.locator('details[open]')).toHaveCount(1);
  await expect(items.nth(1)).toContainText('17 credits');
  await faq.locator('summary').nth(5).click();
  await expect(items.nth(1)).not.toHaveAttribute('open');
  await expect(items.nth(5)).toContainText('Refund Policy');
}

test('an embed page plays its sample clip, served as video/mp4', async ({ page, request }) => {
  const { id, title } = gallery[0]!;
  const response = await request.get(`/samples/${id}.mp4`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('video/mp4');
  const poster = await request.get(`/samples/${id}.jpg`);
  expect(poster.status()).toBe(200);
  expect(poster.headers()['content-type']).toBe('image/jpeg');

  await page.goto(`/embed/${id}`);
  await expect(page).toHaveTitle(new RegExp(title));
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  const video = page.getByLabel(`${title}, 8-second video with sound`);
  await expect(video).toHaveAttribute('src', `/samples/${id}.mp4`);
  await video.evaluate((el: HTMLVideoElement) => {
    // The page says preload="none"; ask for metadata the way pressing play would.
    el.preload = 'metadata';
    el.load();
  });
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((el: HTMLVideoElement) => el.duration)).toBeCloseTo(8, 0);
});

test('a clip still rendering shows a poster, then a note instead of a broken player', async ({
  page,
  request,
}) => {
  // Not among E2E_READY_SAMPLES and SAMPLE_CLIPS=off: pending for the whole run.
  const pending = gallery.find((entry) => !E2E_READY_SAMPLES.includes(entry.id))!;
  const poster = await request.get(`/samples/${pending.id}.jpg`);
  expect(poster.status()).toBe(200);
  expect(poster.headers()['content-type']).toBe('image/jpeg');
  expect(poster.headers()['cache-control']).toBe('no-store');
  const clip = await request.head(`/samples/${pending.id}.mp4`);
  expect(clip.status()).toBe(503);
  expect(Number(clip.headers()['retry-after'])).toBeGreaterThan(0);

  await page.goto(`/embed/${pending.id}`);
  const video = page.locator('video[data-sample-video]');
  await expect(video).toHaveAttribute('poster', `/samples/${pending.id}.jpg`);
  const note = page.getByRole('status');
  await expect(note).toBeHidden();
  await video.evaluate((el: HTMLVideoElement) => el.play().catch(() => {}));
  await expect(note).toBeVisible();
  await expect(note).toHaveText(/still being prepared/);
  await expect(video).not.toHaveAttribute('controls');
});

test('the home page frames its embed pages (same-origin framing is allowed)', async ({ page }) => {
  await page.goto('/');
  await galleryRegion(page).locator('li[data-category]').first().scrollIntoViewIfNeeded();
  const frame = page.frameLocator(`iframe[src="/embed/${gallery[0]!.id}"]`);
  await expect(frame.locator('video')).toHaveAttribute('poster', `/samples/${gallery[0]!.id}.jpg`);
});
