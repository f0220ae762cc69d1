import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signInThroughApi } from '../helpers/browser.ts';

const EDITOR = 'editor@e2e.example';

async function signInAs(page: Page, email: string, name: string) {
  return (await signInThroughApi(page, name, email)).token;
}

/** Waits until the publisher has rebuilt the site after our changes. */
async function waitForLive(page: Page, token: string, before: string | null) {
  await expect
    .poll(
      async () => {
        const res = await page.request.get('/api/blog/admin/build-status', {
          headers: { authorization: `Bearer ${token}` },
        });
        const { data } = await res.json();
        return data.state === 'live' && data.releaseId !== before ? 'live' : data.state;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('live');
}

async function releaseId(page: Page, token: string) {
  const res = await page.request.get('/api/blog/admin/build-status', {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()).data.releaseId as string | null;
}

const png = (color: string) =>
  sharp({ create: { width: 1200, height: 675, channels: 3, background: color } })
    .png()
    .toBuffer();

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test('an editor writes, uploads, publishes; a reader sees the pre-rendered article with its image and tags', async ({
  page,
  browser,
}) => {
  const token = await signInAs(page, EDITOR, 'Edith Editor');
  const before = await releaseId(page, token);
  await page.goto('/blog-admin');
  await expect(page.getByRole('heading', { name: 'Blog Management' })).toBeVisible();
  await expect(page.getByTestId('blog-admin-list')).toBeVisible();
  await page.getByRole('button', { name: 'New Article' }).first().click();
  const editor = page.getByTestId('blog-editor');
  await expect(editor.getByRole('heading', { name: 'New Article' })).toBeVisible();
  await expect(page.getByTestId('blog-save')).toBeDisabled();

  const title = `Lighting tips ${Date.now()}`;
  await editor.getByLabel(/^Title\s*\*?$/).fill(title);
  await expect(page.getByTestId('slug-preview')).toHaveText(
    new RegExp(`/blog/lighting-tips-\\d+$`),
  );
  await editor
    .getByLabel('Excerpt')
    .fill('Three lighting setups that make short clips look cinematic.');
  await page
    .getByTestId('featured-image')
    .locator('input[type=file]')
    .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await png('#6c5ce7') });
  await expect(page.getByTestId('featured-image').locator('img')).toBeVisible();

  const body = page.locator('.ql-editor');
  await body.click();
  await page.keyboard.type('Golden hour light is soft and warm. ');
  const chooser = page.waitForEvent('filechooser');
  await page.locator('.ql-toolbar .ql-image').click();
  await (
    await chooser
  ).setFiles({ name: 'inline.png', mimeType: 'image/png', buffer: await png('#2ecc71') });
  await expect(body.locator('img')).toHaveCount(1);
  await expect(body.locator('img')).toHaveAttribute('style', /max-width: 800px/);

  await editor.getByLabel('Tags').fill('lighting, cinematic');
  await editor.getByLabel('Status').selectOption('published');
  await expect(page.getByTestId('blog-save')).toBeEnabled();
  await page.getByTestId('blog-save').click();
  await expect(page.getByTestId('blog-admin-list')).toContainText(title);
  await waitForLive(page, token, before);
  await expect(page.getByTestId('publish-status')).toContainText('Live');

  const slug = (
    await page.request.get('/api/blog/posts?page=1&limit=12').then((r) => r.json())
  ).data.posts.find((p: { title: string }) => p.title === title).slug;
  const reader = await browser.newPage();
  await reader.goto(`/blog/${slug}`);
  await expect(reader.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(reader).toHaveTitle(new RegExp(title));
  await expect(reader.locator('link[rel=canonical]')).toHaveAttribute(
    'href',
    new RegExp(`/blog/${slug}$`),
  );
  await expect(reader.locator('meta[property="og:image"]')).toHaveAttribute(
    'content',
    /\/uploads\/blog\/[0-9a-f]{32}\.png$/,
  );
  await expect(reader.getByText('Golden hour light is soft and warm.')).toBeVisible();
  await expect(reader.locator('article img[src^="/uploads/blog/"]')).toHaveCount(2);
  await expect(reader.getByText('#lighting')).toBeVisible();
  await expect(reader.getByText('#cinematic')).toBeVisible();
  await expect(reader.getByText(/\d+ views/)).toBeVisible();
  await expect(reader.getByRole('link', { name: 'Back to Blog' })).toHaveAttribute('href', '/blog');
  const rss = await reader.request.get('/rss.xml');
  expect(await rss.text()).toContain(title);
  const sitemap = await reader.request.get('/sitemap-0.xml');
  expect(await sitemap.text()).toContain(`/blog/${slug}`);
  await reader.close();
});

test('the article page shows its body with JavaScript disabled', async ({ browser, request }) => {
  const { data } = await (await request.get('/api/blog/posts?page=1&limit=12')).json();
  const slug = data.posts[0].slug as string;
  const detail = (await (await request.get(`/api/blog/posts/${slug}`)).json()).data;
  const firstWords = (detail.content as string)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 30);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/blog/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: detail.title })).toBeVisible();
  await expect(page.locator('article')).toContainText(firstWords);
  await context.close();
});

test('a visitor is sent away from /blog-admin without rights', async ({ page }) => {
  await signInAs(page, 'plain-reader@e2e.example', 'Plain Reader');
  page.on('dialog', (d) => {
    expect(d.message()).toBe('You do not have blog management permissions');
    void d.accept();
  });
  await page.goto('/blog-admin');
  await page.waitForURL((url) => url.pathname === '/');
});

test('the list pages 12 posts at a time', async ({ page }) => {
  const token = await signInAs(page, EDITOR, 'Edith Editor');
  const before = await releaseId(page, token);
  const auth = { authorization: `Bearer ${token}` };
  for (let i = 1; i <= 13; i++) {
    await page.request.post('/api/blog/admin/posts', {
      headers: auth,
      data: {
        title: `Paging post ${i}`,
        content: `<p>Paging body ${i}</p>`,
        status: 'published',
        tags: [],
      },
    });
  }
  await waitForLive(page, token, before);
  const total = (await page.request.get('/api/blog/posts?page=1&limit=12').then((r) => r.json()))
    .data.pagination.total as number;
  await page.goto('/blog');
  await expect(page.locator('main article')).toHaveCount(12);
  await expect(page.getByRole('link', { name: /^(Page )?2$/ }).first()).toBeVisible();
  await page.goto('/blog/page/2');
  await expect(page.locator('main article')).toHaveCount(Math.min(12, total - 12));
});
