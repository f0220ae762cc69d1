import { expect, test } from '@playwright/test';
import { uniqueEmail } from '../helpers/browser.ts';
import {
  expectLanguageLinks,
  latinWordsLeft,
  overflowing,
  screenshotIfAsked,
} from '../helpers/i18n.ts';

/**
 * Issue 21 (first pages): the home page, sign-in and the legal pages exist in Chinese under /zh,
 * with the header, footer and language switch; each names the other in hreflang and the sitemap;
 * a first-visit hint offers the other language and the choice is remembered.
 */

const PHONE = { width: 390, height: 844 };

test.describe('Chinese pages at 390 px, for a Chinese browser', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'zh-CN' });

  for (const path of ['/zh', '/zh/login', '/zh/terms-of-service', '/zh/refund-policy']) {
    test(`${path} is in Chinese, names its English version, and fits`, async ({
      page,
      baseURL,
    }) => {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
      const english = path === '/zh' ? '/' : path.slice(3);
      await expectLanguageLinks(page, english, path, baseURL);
      // Islands have rendered (the login panel, the header's Login), then nothing is English.
      await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      expect(await latinWordsLeft(page)).toEqual([]);
      expect(await overflowing(page)).toEqual([]);
      // The footer's switch leads to this page in English.
      const footerSwitch = page.getByRole('navigation', { name: '语言' });
      await expect(footerSwitch.getByRole('link', { name: 'English' })).toHaveAttribute(
        'href',
        english,
      );
    });
  }

  test('signing in on /zh/login lands on the Chinese home page, signed in', async ({ page }) => {
    await page.goto('/zh/login');
    await expect(page.getByRole('heading', { level: 1, name: '登录' })).toBeVisible();
    await page.getByLabel('姓名').fill('李雷');
    await page.getByLabel('邮箱').fill(uniqueEmail('zh'));
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/zh');
    await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '0 积分');
    await page.getByRole('button', { name: '打开菜单' }).click();
    const menu = page.getByRole('dialog', { name: '菜单' });
    await expect(menu.getByRole('button', { name: '退出登录' })).toBeVisible();
    // Pages in Chinese are linked in Chinese (the blog too: /zh/blog lists the Chinese posts).
    await expect(menu.getByRole('link', { name: '价格' })).toHaveAttribute('href', '/zh/pricing');
    await expect(menu.getByRole('link', { name: '博客' })).toHaveAttribute('href', '/zh/blog');
    await screenshotIfAsked(page, 'signed-in-menu');
    expect(await latinWordsLeft(page)).toEqual([]);
  });
});

test('the header switch keeps the page, and the choice is remembered', async ({ page }) => {
  await page.goto('/terms-of-service');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const toChinese = page.locator('.site-header').getByRole('link', { name: '简体中文' });
  await expect(toChinese).toHaveAttribute('hreflang', 'zh-CN');
  await toChinese.click();
  await page.waitForURL((url) => url.pathname === '/zh/terms-of-service');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('服务条款');
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('zh-CN');
  // The footer of the Chinese page marks Chinese as the current language.
  await expect(
    page.getByRole('navigation', { name: '语言' }).getByRole('link', { name: '简体中文' }),
  ).toHaveAttribute('aria-current', 'page');
});

test('a page that exists in English only has no switch and no alternates', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(0);
  await expect(page.locator('.language-link')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Language' })).toHaveCount(0);
});

test.describe('first visit from a Chinese browser', () => {
  test.use({ locale: 'zh-CN' });

  test('is offered Chinese, in Chinese, and a choice to stay keeps the hint away', async ({
    page,
  }) => {
    await page.goto('/');
    const hint = page.getByRole('complementary', { name: '语言建议' });
    await expect(hint).toBeVisible();
    await expect(hint).toHaveAttribute('lang', 'zh-CN');
    await expect(hint.getByRole('link', { name: '切换到中文' })).toHaveAttribute('href', '/zh');
    await hint.getByRole('button', { name: '继续使用英文' }).click();
    await expect(hint).toBeHidden();
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('complementary', { name: '语言建议' })).toBeHidden();
  });

  test('is not offered anything on a Chinese page', async ({ page }) => {
    await page.goto('/zh');
    await expect(page.locator('#language-hint')).toBeHidden();
  });
});

test('an English browser on a Chinese page is offered English, and no page redirects', async ({
  page,
}) => {
  const response = await page.goto('/zh/privacy-policy');
  expect(response?.request().redirectedFrom()).toBeNull();
  const hint = page.getByRole('complementary', { name: 'Language suggestion' });
  await expect(hint).toBeVisible();
  await hint.getByRole('link', { name: 'Read in English' }).click();
  await page.waitForURL((url) => url.pathname === '/privacy-policy');
  await expect(page.locator('#language-hint')).toBeHidden();
});

test('the sitemap lists both languages of a translated page, and only those', async ({
  request,
  baseURL,
}) => {
  const xml = await (await request.get('/sitemap-0.xml')).text();
  const entry = (path: string) =>
    xml.match(new RegExp(`<url><loc>${new URL(path, baseURL).href}</loc>.*?</url>`))?.[0] ?? '';
  for (const [english, chinese] of [
    ['/', '/zh'],
    ['/refund-policy', '/zh/refund-policy'],
    ['/blog', '/zh/blog'],
  ] as const) {
    for (const path of [english, chinese]) {
      const url = entry(path);
      expect(url, path).toContain(
        `<xhtml:link rel="alternate" hreflang="zh-CN" href="${new URL(chinese, baseURL).href}"/>`,
      );
      expect(url, path).toContain(
        `<xhtml:link rel="alternate" hreflang="x-default" href="${new URL(english, baseURL).href}"/>`,
      );
    }
  }
  expect(xml).not.toContain('/zh/login');
});

test('an unknown path under /zh lands on the Chinese home page', async ({ page }) => {
  await page.goto('/zh/no-such-page');
  await page.waitForURL((url) => url.pathname === '/zh');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
});
