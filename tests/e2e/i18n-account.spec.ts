import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { islandReady, uniqueEmail } from '../helpers/browser.ts';
import { latinWordsLeft, overflowing, expectLanguageLinks } from '../helpers/i18n.ts';

/**
 * Issue 21: the pages mailed links open, in Chinese at /zh/verify-email and /zh/reset-password,
 * on a phone with a Chinese browser. A sign-up made in Chinese is mailed a link to the Chinese
 * confirmation page, which signs in and goes to the Chinese home page; a reset asked for in
 * Chinese leads to the Chinese reset page, whose form, errors and answer are in Chinese. No
 * English left, nothing wider than the screen; the English pages stay as they were.
 */

const outbox = path.resolve(process.env.E2E_DATA_DIR ?? '.test-output/e2e-data', 'outbox');

/** Requests made as the Chinese site makes them (its HTTP client sends the page's language). */
const CHINESE = { 'accept-language': 'zh-CN' };

/** The path and query of the newest `/…{page}?token=` link mailed to `email`. */
async function mailedLink(email: string, page: 'verify-email' | 'reset-password') {
  let link = '';
  await expect
    .poll(async () => {
      const files = (await readdir(outbox).catch(() => [] as string[])).sort().reverse();
      for (const file of files) {
        const mail = await readFile(path.join(outbox, file), 'utf8');
        const match = new RegExp(`https?://[^/\\s]+((?:/zh)?/${page}\\?token=[\\w-]+)`).exec(mail);
        if (mail.includes(`To: ${email}\r\n`) && match) return (link = match[1]!);
      }
      return '';
    })
    .not.toBe('');
  return link;
}

/** The page names its two versions (hreflang) and its own as canonical, and is noindex. */
async function expectAlternates(page: Page, english: string, current: string, baseURL: string) {
  await expectLanguageLinks(page, english, current, baseURL);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
}

/** Nothing English on the page, nothing wider than the screen. */
async function expectChineseThatFits(page: Page) {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  expect(await latinWordsLeft(page)).toEqual([]);
  expect(await overflowing(page)).toEqual([]);
}

test.describe('mailed links in Chinese at 390 px, for a Chinese browser', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
  });

  test('a sign-up in Chinese is mailed /zh/verify-email, which confirms, signs in and goes to /zh', async ({
    page,
    baseURL,
  }) => {
    // Without a token, the page says so in Chinese.
    await page.goto('/zh/verify-email');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page).toHaveTitle(/^确认邮箱 \| /);
    await expectAlternates(page, '/verify-email', '/zh/verify-email', baseURL!);
    await expect(page.getByRole('main').getByRole('alert')).toContainText('此链接缺少确认码');
    await expectChineseThatFits(page);

    const email = uniqueEmail('zh-confirm');
    const up = await page.request.post('/auth/signup', {
      headers: CHINESE,
      data: { email, password: 'e2e-password-1', name: '李雷' },
    });
    expect(up.status()).toBe(200);
    const link = await mailedLink(email, 'verify-email');
    expect(link).toMatch(/^\/zh\/verify-email\?token=/);

    await page.goto(link);
    await islandReady(page, 'ConfirmEmail');
    await expect(page.getByRole('heading', { level: 1, name: '确认邮箱' })).toBeVisible();
    await expect(page.locator('.auth-lead')).toHaveText(
      '点击下方按钮，确认这个邮箱地址属于你。确认后将自动登录并前往首页。',
    );
    await expectChineseThatFits(page);
    await page.getByRole('button', { name: '确认我的邮箱' }).click();
    await page.waitForURL((url) => url.pathname === '/zh');
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();
    await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', /积分$/);

    // The link works once; the server's answer is in Chinese.
    await page.goto(link);
    await islandReady(page, 'ConfirmEmail');
    await page.getByRole('button', { name: '确认我的邮箱' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toContainText('已被使用');
    await expectChineseThatFits(page);
  });

  test('a reset asked for in Chinese leads to /zh/reset-password, whose form works in Chinese', async ({
    page,
    baseURL,
  }) => {
    const email = uniqueEmail('zh-reset');
    await page.request.post('/api/auth/local', {
      headers: CHINESE,
      data: { name: '韩梅梅', email },
    });
    await page.request.post('/api/auth/reset-password', { headers: CHINESE, data: { email } });
    const link = await mailedLink(email, 'reset-password');
    expect(link).toMatch(/^\/zh\/reset-password\?token=/);

    await page.goto(link);
    await islandReady(page, 'ResetPasswordForm');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page).toHaveTitle(/^设置新密码 \| /);
    await expectAlternates(page, '/reset-password', '/zh/reset-password', baseURL!);
    await expect(page.getByRole('heading', { level: 1, name: '设置新密码' })).toBeVisible();
    await expect(page.locator('#reset-password-hint')).toHaveText('至少 8 个字符。');
    await expectChineseThatFits(page);

    await page.getByLabel('新密码', { exact: true }).fill('new-e2e-password');
    await page.getByLabel('再次输入新密码').fill('something-else');
    await page.getByRole('button', { name: '设置新密码' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      '两次输入的密码不一致。请在两个输入框中输入相同的新密码。',
    );
    await expectChineseThatFits(page);

    await page.getByLabel('再次输入新密码').fill('new-e2e-password');
    await page.keyboard.press('Enter');
    const done = page.getByRole('main').getByRole('status');
    await expect(done).toContainText('你的密码已修改');
    await expect(done.getByRole('link', { name: '前往登录' })).toHaveAttribute('href', '/zh/login');
    await expectChineseThatFits(page);
    const signIn = await page.request.post('/auth/signin', {
      data: { email, password: 'new-e2e-password' },
    });
    expect(signIn.status()).toBe(200);
  });
});

test('the English pages are unchanged and name their Chinese versions', async ({
  page,
  baseURL,
}) => {
  for (const [english, heading, button] of [
    ['/verify-email', 'Confirm your email', 'Confirm my email'],
    ['/reset-password', 'Choose a new password', 'Set new password'],
  ] as const) {
    await page.goto(`${english}?token=unused`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page).toHaveTitle(new RegExp(`^${heading} \\| `));
    await expectAlternates(page, english, english, baseURL!);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('button', { name: button })).toBeVisible();
  }
  await expect(page.locator('#reset-password-hint')).toHaveText('At least 8 characters.');
});
