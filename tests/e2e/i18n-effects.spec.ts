import { expect, test, type Page } from '@playwright/test';
import effectsZh from '../../content/zh-CN/effects.json' with { type: 'json' };
import kissingZh from '../../content/zh-CN/landings/ai-french-kissing.json' with { type: 'json' };
import asmrZh from '../../content/zh-CN/landings/asmr-video.json' with { type: 'json' };
import effects from '../../content/effects.json' with { type: 'json' };
import kissing from '../../content/landings/ai-french-kissing.json' with { type: 'json' };
import {
  ALLOWED_LATIN,
  latinWordsLeft,
  overflowing,
  expectLanguageLinks,
} from '../helpers/i18n.ts';

/**
 * Issue 21 (effects): /zh/video-effects and the two effect landing pages in Chinese, walked at
 * 390 px by a Chinese browser: chips that filter, cards that lead to the Chinese pages, samples,
 * FAQ and a call to action that opens the Chinese generator with the Chinese prompt.
 */

const PHONE = { width: 390, height: 844 };
const GENERATOR = '/text-to-veo3-video';
/** The genre keeps its name in Chinese (ASMR视频), like the names ALLOWED_LATIN lists. */
const ALLOW = ['ASMR'];
const CHIPS_ZH = ['全部', '互动', '外貌', '情绪', '娱乐', '英雄/反派', '恐怖/奇幻', '圣诞', '其他'];

const chipGroup = (page: Page) => page.getByRole('group', { name: '按类别筛选特效' });
const cards = (page: Page) => page.getByTestId('effects-grid').getByRole('listitem');
const promptHref = (prompt: string, locale = '/zh') =>
  `${locale}${GENERATOR}?type=text&${new URLSearchParams({ prompt })}`;
const fill = (text: string) =>
  text.replaceAll('{{videoSeconds}}', '8').replaceAll('{{videoCost}}', '17');

/** The Latin words in a text once allowed names are taken out (for titles and JSON-LD). */
const latinIn = (text: string) =>
  ALLOW.reduce((rest, word) => rest.split(word).join(' '), text)
    .replace(ALLOWED_LATIN, ' ')
    .match(/[A-Za-z]{2,}/g) ?? [];

async function visibleEffects(page: Page): Promise<string[]> {
  const visible = cards(page).filter({ visible: true });
  return visible.evaluateAll((items) => items.map((item) => item.getAttribute('data-effect')!));
}

const idsIn = (category?: string) =>
  effectsZh.cards.filter((card) => !category || card.category === category).map((card) => card.id);

async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const data = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) => scripts.map((s) => JSON.parse(s.textContent!)));
  return data.flat();
}

/** lang, canonical, hreflang, a Chinese title and description, no English, nothing too wide. */
async function expectChinesePage(page: Page, path: string, baseURL: string) {
  const english = path.slice(3);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expectLanguageLinks(page, english, path, baseURL);
  expect(latinIn(await page.title())).toEqual([]);
  const description = await page.locator('meta[name="description"]').getAttribute('content');
  expect(latinIn(description!)).toEqual([]);
  expect(description!.length).toBeLessThanOrEqual(155);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  expect(await latinWordsLeft(page, { allow: ALLOW })).toEqual([]);
  expect(await overflowing(page)).toEqual([]);
  await expect(
    page.getByRole('navigation', { name: '语言' }).getByRole('link', { name: 'English' }),
  ).toHaveAttribute('href', english);
}

test.describe('effects in Chinese at 390 px, for a Chinese browser', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'zh-CN' });

  test('/zh/video-effects is in Chinese, names its English version, and fits', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/zh/video-effects');
    await expect(page.locator('h1')).toHaveText(effectsZh.page.h1);
    await expectChinesePage(page, '/zh/video-effects', baseURL!);

    const list = (await jsonLd(page)).find((data) => data['@type'] === 'ItemList') as {
      name: string;
      itemListElement: { name: string; description: string; url: string }[];
    };
    expect(list.name).toBe(effectsZh.page.h1);
    expect(list.itemListElement.map((item) => item.name)).toEqual(
      effectsZh.cards.map((card) => card.title),
    );
    expect(latinIn(JSON.stringify(list.itemListElement.map((i) => i.description)))).toEqual([]);
    expect(new URL(list.itemListElement[0]!.url).pathname).toBe('/zh/ai-french-kissing');
  });

  test('the chips are in Chinese and filter the cards', async ({ page }) => {
    await page.goto('/zh/video-effects');
    await expect(chipGroup(page).locator('label')).toHaveText(CHIPS_ZH);
    await expect(chipGroup(page).getByRole('radio', { name: '全部' })).toBeChecked();
    expect(await visibleEffects(page)).toEqual(idsIn());

    for (const [label, category] of [
      ['恐怖/奇幻', 'Horror/Fantasy'],
      ['圣诞', 'Xmas'],
    ] as const) {
      await chipGroup(page).getByText(label, { exact: true }).click();
      await expect(chipGroup(page).getByRole('radio', { name: label, exact: true })).toBeChecked();
      await expect(cards(page).filter({ visible: true })).toHaveCount(idsIn(category).length);
      expect(await visibleEffects(page)).toEqual(idsIn(category));
      // Each card shows its category's Chinese name.
      await expect(cards(page).filter({ visible: true }).first()).toContainText(label);
    }

    await chipGroup(page).getByText('全部', { exact: true }).click();
    await expect(cards(page).filter({ visible: true })).toHaveCount(effectsZh.cards.length);
  });

  test('cards lead to the Chinese landing pages and the Chinese generator', async ({ page }) => {
    await page.goto('/zh/video-effects');
    for (const card of effectsZh.cards) {
      const link = page.getByRole('link', { name: card.title, exact: true });
      await expect(link).toHaveAttribute(
        'href',
        card.href ? `/zh${card.href}` : promptHref(card.sample.prompt),
      );
    }
    await expect(page.locator('.effects-cta a')).toHaveAttribute(
      'href',
      `/zh${GENERATOR}?type=text`,
    );

    await page.getByRole('link', { name: 'AI 法式热吻', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/zh/ai-french-kissing');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(fill(kissingZh.h1));

    await page.goto('/zh/video-effects');
    await page.getByRole('link', { name: 'ASMR 声音短片', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/zh/asmr-video');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(fill(asmrZh.h1));
  });

  for (const landing of [kissingZh, asmrZh]) {
    const path = `/zh/${landing.slug}`;

    test(`${path} is in Chinese, names its English version, and fits`, async ({
      page,
      baseURL,
    }) => {
      await page.goto(path);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.locator('h1')).toHaveText(fill(landing.h1));
      await expectChinesePage(page, path, baseURL!);

      const crumbs = page.getByRole('navigation', { name: '面包屑导航' });
      await expect(crumbs.getByRole('link', { name: '首页' })).toHaveAttribute('href', '/zh');
      await expect(crumbs.getByRole('link', { name: '视频特效' })).toHaveAttribute(
        'href',
        '/zh/video-effects',
      );

      const data = await jsonLd(page);
      const videos = data.filter((item) => item['@type'] === 'VideoObject') as {
        name: string;
        description: string;
      }[];
      expect(videos.map((video) => video.name)).toEqual(
        landing.samples.map((sample) => `${landing.title}：${sample.title}`),
      );
      const faq = data.find((item) => item['@type'] === 'FAQPage') as {
        mainEntity: { name: string; acceptedAnswer: { text: string } }[];
      };
      expect(faq.mainEntity.map((q) => q.name)).toEqual(landing.faq.map((q) => q.question));
      const texts = [
        ...videos.flatMap((video) => [video.name, video.description]),
        ...faq.mainEntity.flatMap((q) => [q.name, q.acceptedAnswer.text]),
      ];
      expect(latinIn(texts.join('\n'))).toEqual([]);
    });

    test(`${path} shows its samples, an FAQ and prompts for the Chinese generator`, async ({
      page,
    }) => {
      await page.goto(path);
      const videos = page.locator('main video');
      await expect(videos).toHaveCount(3);
      for (const [index, sample] of landing.samples.entries()) {
        await expect(videos.nth(index)).toHaveAttribute('poster', `/samples/${sample.id}.jpg`);
        await expect(videos.nth(index)).toHaveAccessibleName(sample.title);
        const card = page.locator(`[data-sample="${sample.id}"]`);
        await expect(card).toContainText(`提示词： ${sample.prompt}`);
        // The hidden suffix is laid out apart, so the name may hold a space before it.
        const use = card.getByRole('link', { name: /^使用此提示词/ });
        await expect(use).toHaveAccessibleName(new RegExp(`^使用此提示词\\s*：${sample.title}$`));
        await expect(use).toHaveAttribute('href', promptHref(sample.prompt));
      }

      const faq = page.getByRole('region', { name: '常见问题' });
      const items = faq.locator('details');
      await expect(items).toHaveCount(landing.faq.length);
      await faq.getByText(landing.faq[2]!.question).click();
      await expect(items.nth(2)).toHaveAttribute('open', '');
      await expect(faq.locator('details[open]')).toHaveCount(1);

      await expect(page.getByTestId('landing-try')).toHaveText('立即试用');
      await expect(page.getByTestId('landing-try')).toHaveAttribute(
        'href',
        promptHref(landing.cta.prompt),
      );
    });

    test(`${path}: the call to action opens the Chinese generator with the prompt`, async ({
      page,
    }) => {
      await page.goto(path);
      const cta = page.getByTestId('landing-cta');
      await expect(cta).toHaveText(landing.cta.label);
      await cta.click();
      await page.waitForURL((url) => url.pathname === `/zh${GENERATOR}`);
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
      await expect(page.getByTestId('tab-text')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('prompt')).toHaveValue(landing.cta.prompt);
    });
  }
});

test('the English pages stay English and name their Chinese versions', async ({
  page,
  baseURL,
}) => {
  await page.goto('/video-effects');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('link[rel="alternate"][hreflang="zh-CN"]')).toHaveAttribute(
    'href',
    new URL('/zh/video-effects', baseURL).href,
  );
  await expect(page.locator('h1')).toHaveText(effects.page.h1);
  await expect(
    page.getByRole('group', { name: 'Filter effects by category' }).locator('label').first(),
  ).toHaveText('All');
  await expect(page.getByRole('link', { name: 'AI French Kiss', exact: true })).toHaveAttribute(
    'href',
    '/ai-french-kissing',
  );

  await page.goto('/ai-french-kissing');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('link[rel="alternate"][hreflang="zh-CN"]')).toHaveAttribute(
    'href',
    new URL('/zh/ai-french-kissing', baseURL).href,
  );
  await expect(page.getByTestId('landing-cta')).toHaveAttribute(
    'href',
    promptHref(kissing.cta.prompt, ''),
  );
  await expect(
    page.getByRole('link', { name: 'Video Effects', exact: true }).first(),
  ).toHaveAttribute('href', '/video-effects');
});
