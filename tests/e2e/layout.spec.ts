/**
 * The shell every page shares (spec 2 "Header"): the AI Tools dropdown, the header's scrolled
 * style, the signed-out full-screen menu at 390 px, and pages that fit a phone. The signed-in
 * menus and "any other path redirects to /" are in auth.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { headerReady } from '../helpers/browser.ts';
import { GENERATOR_PATH } from './site-pages.ts';

test.describe('desktop header', () => {
  test('the AI Tools dropdown opens on click and closes on a second click, Escape and an outside click', async ({
    page,
  }) => {
    await page.goto('/pricing');
    await headerReady(page);
    const nav = page.getByRole('navigation', { name: 'Main' }).first();
    const tools = nav.getByRole('button', { name: 'AI Tools' });
    const textToVideo = nav.getByRole('link', { name: /Text to Video/ });
    const imageToVideo = nav.getByRole('link', { name: /Image to Video/ });
    await expect(tools).toHaveAttribute('aria-expanded', 'false');
    await expect(textToVideo).toBeHidden();

    await tools.click();
    await expect(tools).toHaveAttribute('aria-expanded', 'true');
    await expect(textToVideo).toHaveAttribute('href', `${GENERATOR_PATH}?type=text`);
    await expect(imageToVideo).toHaveAttribute('href', `${GENERATOR_PATH}?type=image`);
    await expect(textToVideo).toBeVisible();
    await tools.click();
    await expect(textToVideo).toBeHidden();

    await tools.click();
    await expect(imageToVideo).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(imageToVideo).toBeHidden();
    await expect(tools).toHaveAttribute('aria-expanded', 'false');
    await expect(tools).toBeFocused();

    await tools.click();
    await expect(textToVideo).toBeVisible();
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await expect(textToVideo).toBeHidden();

    // Keyboard: ArrowDown opens it with focus on the first item, which leads to the generator.
    await tools.focus();
    await page.keyboard.press('ArrowDown');
    await expect(textToVideo).toBeFocused();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === GENERATOR_PATH);
    expect(new URL(page.url()).searchParams.get('type')).toBe('text');
  });

  test('the header changes style once the page scrolls past 50 px', async ({ page }) => {
    await page.goto('/privacy-policy');
    await headerReady(page);
    const header = page.locator('header.site-header');
    await expect(header).not.toHaveClass(/is-scrolled/);
    await page.evaluate(() => window.scrollTo(0, 40));
    await expect(header).not.toHaveClass(/is-scrolled/);
    await page.evaluate(() => window.scrollTo(0, 120));
    await expect(header).toHaveClass(/is-scrolled/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(header).not.toHaveClass(/is-scrolled/);
  });
});

test.describe('the site shell at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a visitor opens the full-screen menu, sees every link, closes it with Escape and navigates from it', async ({
    page,
  }) => {
    await page.goto('/');
    await headerReady(page);
    // The desktop links are folded away on a phone.
    await expect(
      page.locator('header.site-header').getByRole('button', { name: 'AI Tools' }),
    ).toBeHidden();

    const open = page.getByRole('button', { name: 'Open menu' });
    await open.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    const links = {
      Home: '/',
      'Text to Video': `${GENERATOR_PATH}?type=text`,
      'Image to Video': `${GENERATOR_PATH}?type=image`,
      Pricing: '/pricing',
      Blog: '/blog',
      Login: '/login',
    };
    for (const [name, href] of Object.entries(links)) {
      const link = menu.getByRole('link', { name, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute('href', href);
    }
    await expect(menu.getByRole('link', { name: 'History' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Blog Admin' })).toHaveCount(0);
    await expect(menu.getByRole('button', { name: 'Close menu' })).toBeFocused();
    // The page behind does not scroll while the menu is open.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
      'hidden',
    );

    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(open).toBeFocused();
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('');

    await open.click();
    await menu.getByRole('link', { name: 'Pricing', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/pricing');
    await headerReady(page);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  });
});
