/**
 * Issue 20 items 5-7 as a reader and an editor see them: the not-found article in English and
 * Chinese, the slug preview's word table, and post dates in the reader's time zone.
 */
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { signInThroughApi } from '../helpers/browser.ts';

const EDITOR = 'editor@e2e.example';

/**
 * The list page that shows the post titled `title` (/blog, then /blog/page/2…): other specs
 * publish at the same time, so a post can move past the first page. Null when none shows it.
 */
async function listPathWith(page: Page, title: string): Promise<string | null> {
  for (const path of ['/blog', '/blog/page/2', '/blog/page/3', '/blog/page/4']) {
    const res = await page.request.get(path);
    if (res.status() !== 200) return null;
    if ((await res.text()).includes(title)) return path;
  }
  return null;
}

/**
 * Waits until the post's own page and a list page both show it. The build state is not enough
 * here: other specs publish at the same time, so it can read 'building' for a long while on a
 * busy machine, and 'live' can be a release without this post's list page yet.
 */
async function waitForLive(page: Page, slug: string, title: string) {
  await expect
    .poll(
      async () => {
        const article = await page.request.get(`/blog/${slug}`);
        if (article.status() !== 200) return `article ${article.status()}`;
        return (await listPathWith(page, title)) ? 'live' : 'no list page with the post';
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe('live');
}

/** Spec 2's date format (zh-CN, long, hour and minute) in one zone. */
const format = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('zh-CN', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  }).format(new Date(iso));

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

test('a missing article says so in English and Chinese, with a 404 and a way back', async ({
  page,
}) => {
  const response = await page.goto('/blog/no-such-post-anywhere');
  expect(response?.status()).toBe(404);
  const alert = page.getByRole('alert');
  await expect(alert.getByText('Article not found', { exact: true })).toBeVisible();
  await expect(alert.getByText('文章不存在', { exact: true })).toBeVisible();
  await expect(alert.getByText('文章不存在', { exact: true })).toHaveAttribute('lang', 'zh-CN');
  await expect(alert.getByRole('link', { name: 'Back to Blog' })).toHaveAttribute('href', '/blog');
});

test('the slug preview keeps table words as pinyin and drops other Chinese and accents; the server stores the same slug', async ({
  page,
}) => {
  const { token } = await signInThroughApi(page, 'Edith Editor', EDITOR);
  await page.goto('/blog-admin');
  await page.getByRole('button', { name: 'New Article' }).first().click();
  const editor = page.getByTestId('blog-editor');
  const stamp = Date.now();
  const title = `Café AI视频教程 你好 ${stamp}`;
  const expected = `caf-ai-shipin-jiaocheng-${stamp}`;
  await editor.getByLabel(/^Title\s*\*?$/).fill(title);
  await expect(page.getByTestId('slug-preview')).toHaveText(new RegExp(`/blog/${expected}$`));

  const created = await page.request.post('/api/blog/admin/posts', {
    headers: { authorization: `Bearer ${token}` },
    data: { title, content: '<p>Slug body</p>', status: 'draft', tags: [] },
  });
  expect((await created.json()).data.slug).toBe(expected);
});

test.describe('post dates', () => {
  let slug: string;
  let title: string;
  let published: string;

  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    const { token } = await signInThroughApi(page, 'Edith Editor', EDITOR);
    title = `Time zones ${Date.now()}`;
    const res = await page.request.post('/api/blog/admin/posts', {
      headers: { authorization: `Bearer ${token}` },
      data: { title, content: '<p>When was this written?</p>', status: 'published', tags: [] },
    });
    const { data } = await res.json();
    slug = data.slug;
    published = new Date(data.published_at ?? data.created_at).toISOString();
    await waitForLive(page, slug, title);
    await page.close();
  });

  /**
   * The article's 'Published' date, then the list card's date, as a reader in `timezoneId`
   * sees them: each a `<time>` whose `datetime` is the instant, checked by `expectText`.
   */
  async function expectDates(
    browser: Browser,
    timezoneId: string,
    javaScriptEnabled: boolean,
    expectText: (time: Locator) => Promise<void>,
  ) {
    const context = await browser.newContext({ timezoneId, javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`/blog/${slug}`);
    const article = page.locator('.article-meta time').first();
    await expect(article).toHaveAttribute('datetime', published);
    await expectText(article);
    const text = await article.textContent();
    await page.goto((await listPathWith(page, title)) ?? '/blog');
    const card = page.locator('article', { hasText: title }).locator('time');
    await expect(card).toHaveAttribute('datetime', published);
    await expectText(card);
    await context.close();
    return text;
  }

  test('the server renders them in UTC and says so', async ({ browser }) => {
    await expectDates(browser, 'Asia/Shanghai', false, async (time) => {
      await expect(time).toHaveText(`${format(published, 'UTC')} UTC`);
      await expect(time).toHaveAttribute('data-time-zone', 'UTC');
    });
  });

  test('the browser shows them in the reader’s own time zone', async ({ browser }) => {
    const seen: (string | null)[] = [];
    for (const zone of ['America/New_York', 'Asia/Shanghai']) {
      const text = await expectDates(browser, zone, true, async (time) => {
        await expect(time).toHaveText(format(published, zone));
        await expect(time).toHaveAttribute('data-time-zone', zone);
      });
      seen.push(text);
    }
    // New York and Shanghai are 12 or 13 hours apart: never the same clock time.
    expect(seen[0]).not.toBe(seen[1]);
  });
});
