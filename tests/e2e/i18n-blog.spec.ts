import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { headerReady } from '../helpers/browser.ts';
import {
  expectChineseAndFitting,
  expectLanguageLinks,
  latinWordsLeft,
  overflowing,
} from '../helpers/i18n.ts';
import { settle } from './site-pages.ts';

/**
 * Issue 21: the blog in Chinese, walked at 390 px by a Chinese browser. From /zh the menu's 博客
 * leads to /zh/blog, which lists only the Chinese posts; the seeded Chinese article
 * (content/blog-seed/04-zh-how-to-write-prompts.json) reads with nothing English left and nothing
 * wider than the screen; its translation link leads to the English article and back, and each
 * names the other in hreflang. An article's address in the wrong language redirects.
 */

const PHONE = { width: 390, height: 844 };
/** The seeded translation of 01-how-to-write-prompts.json. */
const CHINESE_TITLE = '如何为 8 秒 AI 视频写提示词';
const SHOTS_DIR = path.resolve('.test-output/screenshots');

interface Translation {
  locale: string;
  slug: string;
  title: string;
}

interface Article {
  slug: string;
  locale: string;
  title: string;
  author_name: string;
  translations: Translation[];
}

/** The seeded Chinese article and its English original, as the API answers them. */
async function seededPair(request: APIRequestContext) {
  const list = await request.get('/api/blog/posts?locale=zh-CN&limit=50');
  expect(list.status()).toBe(200);
  const { posts } = (await list.json()).data as { posts: Article[] };
  expect(posts.every((post) => post.locale === 'zh-CN')).toBe(true);
  const listed = posts.find((post) => post.title === CHINESE_TITLE);
  expect(listed, 'the seeded Chinese article (content/blog-seed)').toBeTruthy();
  const chinese = (await (await request.get(`/api/blog/posts/${listed!.slug}`)).json())
    .data as Article;
  const english = chinese.translations.find((translation) => translation.locale === 'en');
  expect(english, 'the Chinese article names its English original').toBeTruthy();
  return { chinese, english: english! };
}

/** The title of content/blog-seed/02-text-or-image-mode.json, which has no translation. */
const UNTRANSLATED_TITLE = (
  JSON.parse(
    readFileSync(
      new URL('../../content/blog-seed/02-text-or-image-mode.json', import.meta.url),
      'utf8',
    ),
  ) as { title: string }
).title;

/**
 * A seeded English article without a translation. Seeded, not any post: other specs publish
 * posts meanwhile, and theirs reach the sitemap only with the next full build.
 */
async function untranslatedEnglish(request: APIRequestContext) {
  const { data } = await (await request.get('/api/blog/posts?locale=en&limit=50')).json();
  const seeded = (data.posts as Article[]).find((post) => post.title === UNTRANSLATED_TITLE);
  expect(seeded, 'the seeded English article 02').toBeTruthy();
  const untranslated = (await (await request.get(`/api/blog/posts/${seeded!.slug}`)).json())
    .data as Article;
  expect(untranslated.translations).toEqual([]);
  expect(untranslated, 'a seeded English article without a translation').toBeTruthy();
  return untranslated!;
}

/** Waits until `path` is the article's own pre-rendered page (not the shell, not a redirect). */
async function waitForArticlePage(request: APIRequestContext, pagePath: string, title: string) {
  await expect
    .poll(
      async () => {
        const res = await request.get(pagePath, { maxRedirects: 0 });
        if (res.status() !== 200) return `status ${res.status()}`;
        return (await res.text()).includes(title) ? 'page' : 'shell';
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe('page');
}

/** The title links of the blog list's cards. */
function cardLinks(page: Page) {
  return page.locator('.post-card__title a');
}

/** A reader in China: dates are rewritten in the reader's zone (in UTC they would say "UTC"). */
const CHINESE_READER = {
  viewport: PHONE,
  isMobile: true,
  hasTouch: true,
  locale: 'zh-CN',
  timezoneId: 'Asia/Shanghai',
};

test.describe('the blog in Chinese at 390 px, for a Chinese browser', () => {
  test.use(CHINESE_READER);
  test.setTimeout(180_000);

  test('from /zh to the Chinese list, the Chinese article, its English original and back', async ({
    page,
    request,
    baseURL,
  }) => {
    const { chinese, english } = await seededPair(request);
    const chinesePath = `/zh/blog/${chinese.slug}`;
    const englishPath = `/blog/${english.slug}`;
    await waitForArticlePage(request, chinesePath, CHINESE_TITLE);
    await waitForArticlePage(request, englishPath, english.title);

    await test.step('the menu of /zh leads to the Chinese blog', async () => {
      await page.goto('/zh');
      await headerReady(page);
      await page.getByRole('button', { name: '打开菜单' }).click();
      await page.getByRole('dialog', { name: '菜单' }).getByRole('link', { name: '博客' }).click();
      await page.waitForURL((url) => url.pathname === '/zh/blog');
    });

    await test.step('the list holds only Chinese posts, in Chinese', async () => {
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('博客');
      const links = cardLinks(page);
      await expect(links.filter({ hasText: CHINESE_TITLE })).toHaveCount(1);
      for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
        expect(href).toMatch(/^\/zh\/blog\/[^/]+$/);
      }
      await expect(links.filter({ hasText: english.title })).toHaveCount(0);
      // Other specs publish Chinese posts meanwhile: their titles and excerpts are content, not UI.
      const cardTexts = await page
        .locator('.post-card__title, .post-card__excerpt, .post-card__author')
        .allInnerTexts();
      await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      expect(await latinWordsLeft(page, { allow: cardTexts })).toEqual([]);
      expect(await overflowing(page)).toEqual([]);
    });

    await test.step('the Chinese article reads in Chinese and fits', async () => {
      await cardLinks(page).filter({ hasText: CHINESE_TITLE }).click();
      await page.waitForURL((url) => url.pathname === chinesePath);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(CHINESE_TITLE);
      await expect(page.locator('.view-count')).toHaveText(/^[\d,]+ 次浏览$/);
      await expect(page.locator('.article-meta__label').first()).toHaveText('作者');
      await expect(page.getByRole('link', { name: '返回博客' })).toHaveAttribute(
        'href',
        '/zh/blog',
      );
      await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      // The seeded author's name and the English original's title (marked lang="en") are names.
      await expectChineseAndFitting(page, [chinese.author_name, english.title]);
      const footerSwitch = page.getByRole('navigation', { name: '语言' });
      await expect(footerSwitch.getByRole('link', { name: 'English' })).toHaveAttribute(
        'href',
        englishPath,
      );
    });

    await test.step('each article names the other in hreflang', async () => {
      await expectLanguageLinks(page, englishPath, chinesePath, baseURL, chinesePath);

      const toEnglish = page.getByTestId('article-translation');
      await expect(toEnglish).toContainText('阅读英文版');
      await expect(toEnglish.locator('cite')).toHaveAttribute('lang', 'en');
      await expect(toEnglish.locator('cite')).toHaveText(english.title);
      await toEnglish.click();
      await page.waitForURL((url) => url.pathname === englishPath);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(english.title);
      await expectLanguageLinks(page, englishPath, englishPath, baseURL, chinesePath);

      const toChinese = page.getByTestId('article-translation');
      await expect(toChinese).toContainText('Read this article in 简体中文');
      await expect(toChinese.locator('cite')).toHaveAttribute('lang', 'zh-CN');
      await toChinese.click();
      await page.waitForURL((url) => url.pathname === chinesePath);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(CHINESE_TITLE);
    });
  });

  test('an article’s address in the other language redirects to its own', async ({ request }) => {
    const { chinese, english } = await seededPair(request);
    const wrongChinese = await request.get(`/zh/blog/${english.slug}`, { maxRedirects: 0 });
    expect(wrongChinese.status()).toBe(301);
    expect(new URL(wrongChinese.headers().location ?? '', 'http://x').pathname).toBe(
      `/blog/${english.slug}`,
    );
    const wrongEnglish = await request.get(`/blog/${chinese.slug}`, { maxRedirects: 0 });
    expect(wrongEnglish.status()).toBe(301);
    expect(new URL(wrongEnglish.headers().location ?? '', 'http://x').pathname).toBe(
      `/zh/blog/${chinese.slug}`,
    );
  });

  test('the Chinese feed lists the Chinese posts and the English feed the English ones', async ({
    request,
  }) => {
    const { chinese, english } = await seededPair(request);
    const zhFeed = await (await request.get('/zh/rss.xml')).text();
    expect(zhFeed).toContain(`/zh/blog/${chinese.slug}</link>`);
    expect(zhFeed).not.toContain(`/blog/${english.slug}</link>`);
    const enFeed = await (await request.get('/rss.xml')).text();
    expect(enFeed).toContain(`/blog/${english.slug}</link>`);
    expect(enFeed).not.toContain(`/blog/${chinese.slug}</link>`);
  });

  test('the sitemap names an article’s translation, and none for an untranslated one', async ({
    request,
    baseURL,
  }) => {
    const { chinese, english } = await seededPair(request);
    const untranslated = await untranslatedEnglish(request);
    await waitForArticlePage(request, `/blog/${untranslated.slug}`, untranslated.title);
    const xml = await (await request.get('/sitemap-0.xml')).text();
    const url = (pagePath: string) => new URL(pagePath, baseURL).href;
    const entry = (pagePath: string) =>
      xml.match(new RegExp(`<url><loc>${url(pagePath)}</loc>.*?</url>`))?.[0] ?? '';
    const links = [
      `<xhtml:link rel="alternate" hreflang="en" href="${url(`/blog/${english.slug}`)}"/>`,
      `<xhtml:link rel="alternate" hreflang="zh-CN" href="${url(`/zh/blog/${chinese.slug}`)}"/>`,
      `<xhtml:link rel="alternate" hreflang="x-default" href="${url(`/blog/${english.slug}`)}"/>`,
    ].join('');
    expect(entry(`/zh/blog/${chinese.slug}`)).toContain(links);
    expect(entry(`/blog/${english.slug}`)).toContain(links);
    expect(entry(`/blog/${untranslated.slug}`)).toMatch(/^<url><loc>/);
    expect(entry(`/blog/${untranslated.slug}`)).not.toContain('xhtml:link');
    expect(xml).not.toContain('article-shell');
  });
});

test('an English article without a translation names no alternates; its switch leads to /zh/blog', async ({
  page,
  request,
}) => {
  const untranslated = await untranslatedEnglish(request);
  await waitForArticlePage(request, `/blog/${untranslated!.slug}`, untranslated!.title);
  await page.goto(`/blog/${untranslated!.slug}`);
  await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(0);
  await expect(page.getByTestId('article-translation')).toHaveCount(0);
  await expect(
    page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: '简体中文' }),
  ).toHaveAttribute('href', '/zh/blog');
  await expect(
    page.locator('.site-header').getByRole('link', { name: '简体中文' }),
  ).toHaveAttribute('href', '/zh/blog');
});

test.describe('screenshots of the Chinese blog at 390 px', () => {
  test.skip(process.env.SCREENSHOTS !== '1', 'set SCREENSHOTS=1 to take the screenshots');
  test.use(CHINESE_READER);
  test.setTimeout(180_000);

  test('the list and the article, full length', async ({ page, request }) => {
    const { chinese } = await seededPair(request);
    const chinesePath = `/zh/blog/${chinese.slug}`;
    await waitForArticlePage(request, chinesePath, CHINESE_TITLE);
    mkdirSync(SHOTS_DIR, { recursive: true });
    for (const [name, pagePath] of [
      ['zh-blog-list', '/zh/blog'],
      ['zh-blog-article', chinesePath],
    ] as const) {
      await page.goto(pagePath);
      await settle(page);
      await page.screenshot({
        path: path.join(SHOTS_DIR, `${name}-${PHONE.width}.png`),
        fullPage: true,
      });
    }
  });
});
