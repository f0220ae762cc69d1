/**
 * Issue 21 in the blog admin: an editor writes an English post and its Chinese translation,
 * the list shows both languages and the link between them, the editor shows them again, the
 * public Chinese article links to the English one, and a refused translation says why.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInThroughApi } from '../helpers/browser.ts';

const EDITOR = 'editor@e2e.example';

/** The stored post titled `title`, as the admin list answers it. */
async function storedPost(page: Page, token: string, title: string) {
  const res = await page.request.get('/api/blog/admin/posts', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await res.json()) as {
    data: { id: string; slug: string; title: string; locale: string }[];
  };
  const post = data.find((candidate) => candidate.title === title);
  if (!post) throw new Error(`No stored post titled ${title}`);
  return post;
}

/** Opens 'New Article' and fills the title and a body (the two fields Save needs). */
async function startArticle(page: Page, title: string, body: string) {
  await page.getByRole('button', { name: 'New Article' }).first().click();
  const editor = page.getByTestId('blog-editor');
  await expect(editor.getByRole('heading', { name: 'New Article' })).toBeVisible();
  await editor.getByLabel(/^Title\s*\*?$/).fill(title);
  await page.locator('.ql-editor').click();
  await page.keyboard.type(body);
  return editor;
}

/** Pathnames of the page's links: a Chinese page must link to `/blog/…`, not `/zh/blog/…`. */
const linkPaths = (page: Page) =>
  page
    .locator('a[href]')
    .evaluateAll((links) =>
      links.map((link) => new URL((link as HTMLAnchorElement).href).pathname),
    );

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

test('an editor publishes an English post and its Chinese translation, and the pages link them', async ({
  page,
  browser,
}) => {
  const { token } = await signInThroughApi(page, 'Edith Editor', EDITOR);
  const stamp = Date.now();
  const enTitle = `Lighting guide ${stamp}`;
  const zhTitle = `AI视频教程 ${stamp}`;
  await page.goto('/blog-admin');
  await expect(page.getByTestId('blog-admin-list')).toBeVisible();

  // The English original: English is the default language, and there is nothing to translate.
  let editor = await startArticle(page, enTitle, 'Soft light from one side.');
  const language = editor.getByLabel('Language', { exact: true });
  const translationOf = editor.getByLabel('Translation of', { exact: true });
  await expect(language).toHaveValue('en');
  await expect(translationOf).toHaveValue('');
  await expect(page.getByTestId('slug-preview')).toHaveText(/\/blog\/lighting-guide-\d+$/);
  await editor.getByLabel('Status').selectOption('published');
  await page.getByTestId('blog-save').click();
  const list = page.getByTestId('blog-admin-list');
  await expect(list).toContainText(enTitle);
  const en = await storedPost(page, token, enTitle);
  expect(en.locale).toBe('en');

  // The Chinese translation: the language moves the address under /zh, and the choice offers
  // the English original by its title and status.
  editor = await startArticle(page, zhTitle, '从侧面打柔光。');
  await expect(language.locator('option[value="zh-CN"]')).toHaveAttribute('lang', 'zh-CN');
  await language.selectOption({ label: '简体中文' });
  await expect(page.getByTestId('slug-preview')).toHaveText(/\/zh\/blog\/ai-shipin-jiaocheng-\d+$/);
  const originalLabel = `“${enTitle}” (Published)`;
  await translationOf.selectOption({ label: originalLabel });
  // Back to English, the English original is no longer a possible original: the choice resets.
  await language.selectOption('en');
  await expect(translationOf).toHaveValue('');
  await expect(editor.getByText('‘Translation of’ is reset to None')).toBeVisible();
  await expect(translationOf.locator('option', { hasText: enTitle })).toHaveCount(0);
  await language.selectOption('zh-CN');
  await translationOf.selectOption({ label: originalLabel });
  await editor.getByLabel('Status').selectOption('published');
  await page.getByTestId('blog-save').click();
  await expect(list).toContainText(zhTitle);
  const zh = await storedPost(page, token, zhTitle);
  expect(zh.locale).toBe('zh-CN');

  // The list: each row's language, what the translation translates, and its own address.
  // By the Edit button: the translation's row names the original's title too.
  const row = (title: string) =>
    list
      .getByTestId('blog-admin-row')
      .filter({ has: page.getByRole('button', { name: `Edit “${title}”` }) });
  const enRow = row(enTitle);
  const zhRow = row(zhTitle);
  await expect(enRow.getByTestId('blog-admin-language')).toHaveText(/^EN\s*Language: English$/);
  await expect(zhRow.getByTestId('blog-admin-language')).toHaveText(/^中文\s*Language: Chinese$/);
  await expect(zhRow.getByTestId('blog-admin-translation')).toHaveText(
    `Translation of “${enTitle}”`,
  );
  await expect(enRow.getByTestId('blog-admin-translation')).toHaveText('Translated into Chinese');
  await expect(enRow.getByRole('link', { name: `View “${enTitle}”` })).toHaveAttribute(
    'href',
    `/blog/${en.slug}`,
  );
  await expect(zhRow.getByRole('link', { name: `View “${zhTitle}”` })).toHaveAttribute(
    'href',
    `/zh/blog/${zh.slug}`,
  );

  // Reopened, the Chinese post shows its language and its original.
  await zhRow.getByRole('button', { name: `Edit “${zhTitle}”` }).click();
  await expect(editor.getByRole('heading', { name: 'Edit Article' })).toBeVisible();
  await expect(language).toHaveValue('zh-CN');
  await expect(translationOf).toHaveValue(en.id);
  await expect(translationOf.locator('option:checked')).toHaveText(originalLabel);
  await editor.getByRole('button', { name: 'Back to List' }).click();

  // Reopened, the English original says it has a translation and stays an original.
  await enRow.getByRole('button', { name: `Edit “${enTitle}”` }).click();
  await expect(language).toHaveValue('en');
  await expect(translationOf).toBeDisabled();
  await expect(editor.getByTestId('blog-own-translations')).toContainText(zhTitle);
  await editor.getByRole('button', { name: 'Back to List' }).click();

  // At 390 px the list and the editor fit the width.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(zhRow.getByTestId('blog-admin-language')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await zhRow.getByRole('button', { name: `Edit “${zhTitle}”` }).click();
  await translationOf.scrollIntoViewIfNeeded();
  await expect(translationOf).toBeVisible();
  const box = await translationOf.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Once published, the Chinese article's page links to the English one (read as served, so
  // the poll ends when the rebuilt page is live, not when an article shell answers).
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/zh/blog/${zh.slug}`);
        if (res.status() !== 200) return `status ${res.status()}`;
        return (await res.text()).includes(`/blog/${en.slug}"`) ? 'linked' : 'not linked yet';
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe('linked');
  const reader = await browser.newPage();
  await reader.goto(`/zh/blog/${zh.slug}`);
  await expect(reader.getByRole('heading', { level: 1, name: zhTitle })).toBeVisible();
  await expect.poll(() => linkPaths(reader)).toContain(`/blog/${en.slug}`);
  await reader.close();
});

test('a translation of a post that is now in the same language shows the server’s refusal', async ({
  page,
}) => {
  const { token } = await signInThroughApi(page, 'Edith Editor', EDITOR);
  const auth = { authorization: `Bearer ${token}` };
  const stamp = Date.now();
  const originalTitle = `Stale original ${stamp}`;
  const created = await page.request.post('/api/blog/admin/posts', {
    headers: auth,
    data: { title: originalTitle, content: '<p>English at first.</p>', status: 'draft', tags: [] },
  });
  const original = (await created.json()).data as { id: string };

  await page.goto('/blog-admin');
  await expect(page.getByTestId('blog-admin-list')).toContainText(originalTitle);
  const editor = await startArticle(page, `Stale translation ${stamp}`, '译文。');
  await editor.getByLabel('Language', { exact: true }).selectOption('zh-CN');
  await editor
    .getByLabel('Translation of', { exact: true })
    .selectOption({ label: `“${originalTitle}” (Draft)` });

  // Meanwhile another editor turns the original into a Chinese post: the list is now stale.
  const moved = await page.request.put(`/api/blog/admin/posts/${original.id}`, {
    headers: auth,
    data: { title: originalTitle, content: '<p>现在是中文。</p>', locale: 'zh-CN' },
  });
  expect(moved.ok()).toBe(true);

  // The alert is answered by the handler as it opens (awaiting it from the test could hang).
  const alerts: string[] = [];
  page.on('dialog', (alert) => {
    alerts.push(alert.message());
    void alert.accept();
  });
  await page.getByTestId('blog-save').click();
  await expect
    .poll(() => alerts)
    .toEqual([
      'Save failed: A translation must be in another language than the article it translates. Change the language or choose another article.',
    ]);
  // Nothing is lost: the editor stays open with the choice, ready for another try.
  await expect(editor.getByRole('heading', { name: 'New Article' })).toBeVisible();
  await expect(editor.getByLabel('Language', { exact: true })).toHaveValue('zh-CN');
  await expect(page.getByTestId('blog-save')).toBeEnabled();
});
