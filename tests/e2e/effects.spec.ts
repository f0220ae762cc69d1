import { expect, test, type Page } from '@playwright/test';
import effects from '../../content/effects.json' with { type: 'json' };
import kissing from '../../content/landings/ai-french-kissing.json' with { type: 'json' };
import asmr from '../../content/landings/asmr-video.json' with { type: 'json' };
import { SPEC_EFFECT_CATEGORIES } from '../helpers/content.ts';

/** /video-effects, its CSS-only category filter, the two landing pages and `?prompt=` prefill. */

const CHIPS = ['All', ...SPEC_EFFECT_CATEGORIES];

const chipGroup = (page: Page) => page.getByRole('group', { name: 'Filter effects by category' });
const cards = (page: Page) => page.getByTestId('effects-grid').getByRole('listitem');

/** The effect ids of the cards on screen, in page order. */
async function visibleEffects(page: Page): Promise<string[]> {
  const visible = cards(page).filter({ visible: true });
  return visible.evaluateAll((items) => items.map((item) => item.getAttribute('data-effect')!));
}

const idsIn = (category?: string) =>
  effects.cards.filter((card) => !category || card.category === category).map((card) => card.id);

/** Clicks a chip the way a visitor does: on its label. */
async function chooseChip(page: Page, label: string) {
  await chipGroup(page).getByText(label, { exact: true }).click();
  await expect(chipGroup(page).getByRole('radio', { name: label, exact: true })).toBeChecked();
}

async function expectChipsFilterCards(page: Page) {
  await page.goto('/video-effects');
  await expect(chipGroup(page).locator('label')).toHaveText(CHIPS);
  await expect(chipGroup(page).getByRole('radio', { name: 'All' })).toBeChecked();
  expect(await visibleEffects(page)).toEqual(idsIn());

  await chooseChip(page, 'Horror/Fantasy');
  const horror = idsIn('Horror/Fantasy');
  expect(horror.length).toBeGreaterThan(0);
  await expect(cards(page).filter({ visible: true })).toHaveCount(horror.length);
  expect(await visibleEffects(page)).toEqual(horror);

  await chooseChip(page, 'Xmas');
  expect(await visibleEffects(page)).toEqual(idsIn('Xmas'));

  await chooseChip(page, 'All');
  await expect(cards(page).filter({ visible: true })).toHaveCount(effects.cards.length);
}

test.describe('/video-effects', () => {
  test('has one h1, a canonical link, a description and an ItemList of the effects', async ({
    page,
  }) => {
    const response = await page.goto('/video-effects');
    expect(response?.status()).toBe(200);
    await expect(page.locator('h1')).toHaveCount(1);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(new URL(canonical!).pathname).toBe('/video-effects');
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description!.length).toBeGreaterThan(50);
    expect(description!.length).toBeLessThanOrEqual(155);

    const jsonLd = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) => scripts.map((s) => JSON.parse(s.textContent!)));
    const list = jsonLd.flat().find((data) => data['@type'] === 'ItemList');
    expect(list.itemListElement).toHaveLength(effects.cards.length);
    expect(list.itemListElement[0]).toMatchObject({ position: 1, name: effects.cards[0]!.title });
    expect(new URL(list.itemListElement[0].url).origin).toBe(new URL(page.url()).origin);
  });

  test('the chips filter the cards by category, and All shows every card', async ({ page }) => {
    await expectChipsFilterCards(page);
  });

  test('the arrow keys move between chips, with a visible focus ring', async ({ page }) => {
    await page.goto('/video-effects');
    await chipGroup(page).getByRole('radio', { name: 'All' }).focus();
    await page.keyboard.press('ArrowRight');
    const interaction = chipGroup(page).getByRole('radio', { name: 'Interaction' });
    await expect(interaction).toBeChecked();
    await expect(interaction).toBeFocused();
    expect(await visibleEffects(page)).toEqual(idsIn('Interaction'));
    const outline = await chipGroup(page)
      .getByText('Interaction', { exact: true })
      .evaluate((label) => getComputedStyle(label).outlineStyle);
    expect(outline).toBe('solid');
  });

  test('the kissing and ASMR cards open their landing pages', async ({ page }) => {
    await page.goto('/video-effects');
    await page.getByRole('link', { name: 'AI French Kiss', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/ai-french-kissing');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    await page.goto('/video-effects');
    await page.getByRole('link', { name: 'ASMR Sound Clip', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/asmr-video');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('other cards open the generator in text mode with their prompt', async ({ page }) => {
    await page.goto('/video-effects');
    const santa = effects.cards.find((card) => card.id === 'santa-surprise')!;
    await page.getByRole('link', { name: santa.title, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/text-to-veo3-video');
    expect(new URL(page.url()).searchParams.get('type')).toBe('text');
    await expect(page.getByTestId('tab-text')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('prompt')).toHaveValue(santa.sample.prompt);
  });

  test('every card shows its sample poster at 16:9 (1280x720 JPEG)', async ({ page }) => {
    await page.goto('/video-effects');
    const thumbs = page.getByTestId('effects-grid').locator('img');
    await expect(thumbs).toHaveCount(effects.cards.length);
    for (const [index, card] of effects.cards.entries()) {
      const thumb = thumbs.nth(index);
      await expect(thumb).toHaveAttribute('src', `/samples/${card.sample.id}.jpg`);
      await expect(thumb).toHaveAttribute('width', '1280');
      await expect(thumb).toHaveAttribute('height', '720');
      const poster = await page.request.get(`/samples/${card.sample.id}.jpg`);
      expect(poster.status(), card.sample.id).toBe(200);
      expect(poster.headers()['content-type']).toBe('image/jpeg');
    }
  });

  test('the footer link "Video Effects" on / reaches it', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Video Effects' }).click();
    await page.waitForURL((url) => url.pathname === '/video-effects');
  });
});

test.describe('/video-effects without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the chips still filter the cards (CSS only)', async ({ page }) => {
    await expectChipsFilterCards(page);
  });
});

for (const landing of [kissing, asmr]) {
  const path = `/${landing.slug}`;

  test.describe(path, () => {
    test('has one h1, a canonical link and a description', async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.locator('h1')).not.toContainText('{{');
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
      expect(new URL(canonical!).pathname).toBe(path);
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description!.length).toBeGreaterThan(50);
      expect(description!.length).toBeLessThanOrEqual(155);
      expect(await page.content()).not.toContain('{{');
    });

    test('shows 3 sample videos with posters that load, boxed at 16:9 before playing', async ({
      page,
    }) => {
      await page.goto(path);
      const videos = page.locator('main video');
      await expect(videos).toHaveCount(3);
      for (const [index, sample] of landing.samples.entries()) {
        const video = videos.nth(index);
        await expect(video).toHaveAttribute('poster', `/samples/${sample.id}.jpg`);
        await expect(video).toHaveAttribute('preload', 'none');
        await expect(video).toHaveAttribute('controls', '');
        await expect(video).toHaveAccessibleName(sample.title);
        const box = (await video.boundingBox())!;
        expect(box.width / box.height).toBeCloseTo(16 / 9, 1);

        const poster = await page.request.get(`/samples/${sample.id}.jpg`);
        expect(poster.status(), sample.id).toBe(200);
        expect(poster.headers()['content-type']).toBe('image/jpeg');
        const clip = await page.request.head(`/samples/${sample.id}.mp4`);
        expect(clip.status(), sample.id).toBe(200);
        expect(clip.headers()['content-type']).toBe('video/mp4');
      }
    });

    test('describes the samples as VideoObjects with absolute URLs', async ({ page }) => {
      await page.goto(path);
      const jsonLd = await page
        .locator('script[type="application/ld+json"]')
        .evaluateAll((scripts) => scripts.map((s) => JSON.parse(s.textContent!)));
      const videos = jsonLd.flat().filter((data) => data['@type'] === 'VideoObject');
      expect(videos).toHaveLength(3);
      const origin = new URL(page.url()).origin;
      for (const [index, video] of videos.entries()) {
        const id = landing.samples[index]!.id;
        expect(video).toMatchObject({
          duration: 'PT8S',
          contentUrl: `${origin}/samples/${id}.mp4`,
          thumbnailUrl: `${origin}/samples/${id}.jpg`,
        });
        expect(video.uploadDate).toMatch(new RegExp(`^${landing.uploadDate}`));
      }
    });

    test('has an FAQ with one answer open at a time', async ({ page }) => {
      await page.goto(path);
      const faq = page.getByRole('region', { name: 'Frequently asked questions' });
      const items = faq.locator('details');
      await expect(items).toHaveCount(landing.faq.length);
      await faq.getByText(landing.faq[2]!.question).click();
      await expect(items.nth(2)).toHaveAttribute('open', '');
      await expect(faq.locator('details[open]')).toHaveCount(1);
    });

    test('the call to action opens the generator with the prompt filled in', async ({ page }) => {
      await page.goto(path);
      const cta = page.getByTestId('landing-cta');
      await expect(cta).toHaveText(landing.cta.label);
      await cta.click();
      await page.waitForURL((url) => url.pathname === '/text-to-veo3-video');
      await expect(page.getByTestId('tab-text')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('prompt')).toHaveValue(landing.cta.prompt);
    });
  });
}

test.describe('generator ?prompt= prefill', () => {
  test('fills the prompt, keeps it across tab switches and lets the visitor edit it', async ({
    page,
  }) => {
    const prompt = 'Rain on a tin roof at night, close-up, heavy patter, no music';
    await page.goto(`/text-to-veo3-video?type=text&prompt=${encodeURIComponent(prompt)}`);
    const textarea = page.getByTestId('prompt');
    await expect(textarea).toHaveValue(prompt);

    await page.getByTestId('tab-image').click();
    await expect(page).toHaveURL(/[?&]type=image/);
    await expect(textarea).toHaveValue(prompt);

    await textarea.fill('My own idea');
    await page.getByTestId('tab-text').click();
    await expect(page).toHaveURL(/[?&]type=text/);
    await expect(textarea).toHaveValue('My own idea');
  });

  test('cuts a prompt longer than the textarea allows to 2,000 characters', async ({ page }) => {
    const long = 'slow motion waves '.repeat(150);
    await page.goto(`/text-to-veo3-video?type=text&prompt=${encodeURIComponent(long)}`);
    const textarea = page.getByTestId('prompt');
    await expect(textarea).toHaveValue(long.slice(0, 2000).trimEnd());
  });
});
