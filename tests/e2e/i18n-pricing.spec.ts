import { expect, test, type Page } from '@playwright/test';
import { signInThroughApi, uniqueEmail } from '../helpers/browser.ts';
import {
  expectLanguageLinks,
  latinWordsLeft,
  overflowing,
  screenshotIfAsked,
} from '../helpers/i18n.ts';

/**
 * Issue 21: /pricing in Chinese at /zh/pricing, on a phone with a Chinese browser. Signed out:
 * plans, packs, the yearly switch and the 'please login' banner; signed in: the payment dialog,
 * a pack bought through the local checkout that comes back to /zh/pricing with the success
 * banner in Chinese, a plan, and its cancel dialog. No English left on the page, nothing wider
 * than the screen. Prices are in US dollars, written as Chinese writes them ("US$19.90").
 */

/** Latin the Chinese page shows besides names: dollars ("US$19.90") and the currency code. */
const ALLOW = ['US$', 'USD'];

const noEnglish = async (page: Page, selector?: string) =>
  expect(await latinWordsLeft(page, { selector, allow: ALLOW })).toEqual([]);

/** Every island has rendered (Astro drops `ssr` once one has hydrated). */
const islandsReady = (page: Page) => expect(page.locator('astro-island[ssr]')).toHaveCount(0);

/** Server errors seen by the page: none are expected in these flows. */
function watchServerErrors(page: Page) {
  const errors: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 500) errors.push(`${r.status()} ${r.url()}`);
  });
  return errors;
}

/** Pays the open local checkout and waits to be back on the Chinese pricing page. */
async function payLocalCheckout(page: Page) {
  await page.waitForURL(/\/checkout\/local\//);
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.waitForURL((url) => url.pathname === '/zh/pricing');
}

test.describe('/zh/pricing at 390 px, for a Chinese browser', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
  });

  test('signed out: plans, packs and the yearly switch in Chinese, with its English version named', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/zh/pricing');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page).toHaveTitle(/^价格：订阅套餐与积分包/);
    await expectLanguageLinks(page, '/pricing', '/zh/pricing', baseURL);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('价格');

    for (const [id, price, credits] of [
      ['lite', 'US$29.90', '590 积分'],
      ['pro', 'US$59.90', '1,340 积分'],
      ['pro+', 'US$129.90', '3,370 积分'],
    ] as const) {
      const card = page.getByTestId(`plan-${id}`);
      await expect(card).toContainText(`${price}/月`);
      await expect(card).toContainText(`每月 ${credits}`);
      await expect(card).toContainText('8 秒有声视频');
    }
    await expect(page.getByTestId('plan-pro')).toContainText('最受欢迎');
    for (const [id, price, credits] of [
      ['starter', 'US$19.90', '330 积分'],
      ['basic', 'US$49.90', '950 积分'],
      ['standard', 'US$99.90', '2,200 积分'],
    ] as const) {
      const card = page.getByTestId(`pack-${id}`);
      await expect(card).toContainText(price);
      await expect(card).toContainText(credits);
      await expect(card).toContainText('积分永不过期');
    }
    await expect(
      page.locator('.pricing-notes').getByRole('link', { name: '退款政策' }),
    ).toHaveAttribute('href', '/zh/refund-policy');
    // Search engines read the offers in Chinese too.
    const offers = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) =>
        scripts.flatMap((s) => JSON.parse(s.textContent ?? '{}').offers ?? []),
      );
    expect(offers.map((offer: { name: string }) => offer.name)).toContain(
      'Pro 套餐，按年付费：每月 1,340 积分',
    );
    expect(offers.map((offer: { url: string }) => offer.url)).toContain(
      new URL('/zh/pricing', baseURL).href,
    );

    await islandsReady(page);
    await noEnglish(page);
    expect(await overflowing(page)).toEqual([]);

    // The yearly switch, in Chinese.
    const card = page.getByTestId('plan-pro+');
    const cycle = page.getByRole('group', { name: '计费周期' });
    await expect(cycle.getByRole('radio', { name: '按月' })).toBeChecked();
    await expect(cycle).toContainText('最多省');
    await cycle.getByRole('radio', { name: /按年/ }).check();
    await expect(cycle.getByRole('radio', { name: /按年/ })).toBeChecked();
    await expect(card.getByText('US$959.00', { exact: true })).toBeVisible();
    await expect(card).toContainText('US$79.92/月，每年付费一次');
    await expect(card.getByRole('button', { name: '订阅 Pro+，按年付费' })).toBeVisible();
    await noEnglish(page);
    expect(await overflowing(page)).toEqual([]);

    // Buying signed out asks for a sign-in, in Chinese, leading to the Chinese sign-in page.
    await page.getByRole('button', { name: '购买 Starter 积分包' }).click();
    const banner = page.getByTestId('pricing-banner');
    await expect(banner).toContainText('请先登录再购买');
    await expect(banner.getByRole('link', { name: '登录' })).toHaveAttribute('href', '/zh/login');
    await noEnglish(page);
    expect(await overflowing(page)).toEqual([]);
  });

  test('signed in: the payment dialog, a pack bought through the local checkout, a plan and its cancel dialog', async ({
    page,
  }) => {
    const errors = watchServerErrors(page);
    await signInThroughApi(page, '韩梅梅', uniqueEmail('zh-pricing'));
    await page.goto('/zh/pricing');
    await islandsReady(page);
    await expect(page.getByTestId('pricing-credits')).toContainText('你的余额：0 积分');
    await noEnglish(page);
    expect(await overflowing(page)).toEqual([]);

    // The payment dialog, held open until it has been read: the session request waits.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let request: unknown = null;
    await page.route('**/api/stripe/create-payment-intent', async (route) => {
      request = route.request().postDataJSON();
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: '购买 Starter 积分包' }).click();
    const dialog = page.getByTestId('payment-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading', { name: '结账' })).toBeVisible();
    await expect(dialog).toContainText('Starter 积分包');
    await expect(dialog).toContainText('一次性购买 · 330 积分，永不过期');
    await expect(dialog).toContainText('US$19.90');
    await expect(dialog).toContainText('正在创建安全结账会话…');
    await screenshotIfAsked(page, 'payment-dialog');
    await noEnglish(page, '[data-testid="payment-dialog"]');
    expect(await overflowing(page)).toEqual([]);
    // The buyer is to come back to the Chinese page.
    expect(request).toMatchObject({
      success_url: '/zh/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: '/zh/pricing?payment=cancelled',
    });
    release();

    // The local checkout sends the buyer back to the Chinese page, which says so in Chinese.
    await payLocalCheckout(page);
    await expect(page.getByTestId('pricing-banner')).toContainText('支付成功！积分已到账。');
    await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '330 积分');
    await expect(page).toHaveURL(/\/zh\/pricing$/); // the query is gone
    await expect(page.getByTestId('pricing-credits')).toContainText('你的余额：330 积分');
    await screenshotIfAsked(page, 'paid');
    await noEnglish(page);
    expect(await overflowing(page)).toEqual([]);
    await page.unroute('**/api/stripe/create-payment-intent');

    // A plan: the active subscription and the plan buttons, in Chinese.
    await page.getByRole('button', { name: '订阅 Lite，按月付费' }).click();
    await payLocalCheckout(page);
    await expect(page.getByTestId('pricing-banner')).toContainText('支付成功！积分已到账。');
    const box = page.getByTestId('active-subscription');
    await expect(box).toContainText('当前订阅');
    await expect(box).toContainText('Lite');
    await expect(box).toContainText('按月');
    await expect(box).toContainText('续订日期');
    const lite = page.getByTestId('plan-lite');
    await expect(lite).toContainText('当前');
    await expect(lite.getByRole('button', { name: '当前套餐' })).toBeDisabled();
    await expect(
      page.getByTestId('plan-pro').getByRole('button', { name: '切换套餐（请先取消）' }),
    ).toBeDisabled();
    await noEnglish(page);
    expect(await overflowing(page)).toEqual([]);

    // The cancel dialog.
    await box.getByRole('button', { name: '取消 Lite 订阅' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByRole('heading')).toHaveText('取消你的 Lite 订阅？');
    await expect(confirm.getByRole('button', { name: '保留订阅' })).toBeFocused();
    await noEnglish(page, '[data-testid="cancel-dialog"]');
    expect(await overflowing(page)).toEqual([]);
    await confirm.getByRole('button', { name: '取消订阅' }).click();
    await expect(box).toHaveCount(0);
    await expect(page.getByTestId('pricing-banner')).toContainText('你的订阅已取消。');
    await expect(
      page.getByTestId('plan-lite').getByRole('button', { name: '订阅 Lite，按月付费' }),
    ).toBeEnabled();
    await noEnglish(page);
    expect(await overflowing(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

test('the English page is unchanged and names its Chinese version', async ({ page, baseURL }) => {
  await page.goto('/pricing');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page).toHaveTitle(/^Pricing: plans and credit packs \| /);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pricing');
  await expect(page.locator('link[rel="alternate"][hreflang="zh-CN"]')).toHaveAttribute(
    'href',
    new URL('/zh/pricing', baseURL).href,
  );
  await expect(page.getByTestId('plan-pro+')).toContainText(
    'or $959.00/year billed yearly (save 38%)',
  );
  await expect(page.getByTestId('plan-lite')).toContainText('590 credits every month');
  await expect(page.locator('.pricing-notes')).toContainText(
    'Prices are in US dollars (USD). Payment happens on our payment provider’s secure checkout page. Subscriptions can be cancelled here at any time. See the Refund Policy for refunds.',
  );
  await expect(
    page.locator('.pricing-notes').getByRole('link', { name: 'Refund Policy' }),
  ).toHaveAttribute('href', '/refund-policy');
});
