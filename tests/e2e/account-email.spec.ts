/**
 * The pages mailed links open (issue 16): /verify-email confirms an address only when the
 * person presses its button, and /reset-password sets a new password. Links are read from the
 * e2e server's outbox, as a person would read them from their mail.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { islandReady, uniqueEmail } from '../helpers/browser.ts';

const outbox = path.resolve(process.env.E2E_DATA_DIR ?? '.test-output/e2e-data', 'outbox');

/** The path and query of the newest `/{page}?token=` link mailed to `email`. */
async function mailedLink(email: string, page: 'verify-email' | 'reset-password') {
  let link = '';
  await expect
    .poll(async () => {
      const files = (await readdir(outbox).catch(() => [] as string[])).sort().reverse();
      for (const file of files) {
        const mail = await readFile(path.join(outbox, file), 'utf8');
        const match = new RegExp(`https?://[^/\\s]+(/${page}\\?token=[\\w-]+)`).exec(mail);
        if (mail.includes(`To: ${email}\r\n`) && match) return (link = match[1]!);
      }
      return '';
    })
    .not.toBe('');
  return link;
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test.use({ viewport: { width: 390, height: 844 } });

test('a sign-up link confirms the address only on the button, then signs in', async ({ page }) => {
  const email = uniqueEmail('confirm');
  const up = await page.request.post('/auth/signup', {
    data: { email, password: 'e2e-password-1', name: 'Cora' },
  });
  expect(up.status()).toBe(200);
  const link = await mailedLink(email, 'verify-email');

  await page.goto(link);
  await page.reload(); // opening the page twice (a mail scanner, then the person) uses nothing
  await islandReady(page, 'ConfirmEmail');
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your email' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.getByRole('button', { name: 'Confirm my email' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();

  await page.goto(link);
  await islandReady(page, 'ConfirmEmail');
  await page.getByRole('button', { name: 'Confirm my email' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('already used');
});

test('a reset link sets a new password from a form that checks both fields', async ({ page }) => {
  const email = uniqueEmail('reset');
  await page.request.post('/api/auth/local', { data: { name: 'Rex', email } });
  await page.request.post('/api/auth/reset-password', { data: { email } });

  await page.goto(await mailedLink(email, 'reset-password'));
  await islandReady(page, 'ResetPasswordForm');
  await expectNoSidewaysScroll(page);
  await page.getByLabel('New password', { exact: true }).fill('new-e2e-password');
  await page.getByLabel('Repeat the new password').fill('something-else');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('different');

  await page.getByLabel('Repeat the new password').fill('new-e2e-password');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main').getByRole('status')).toContainText(
    'Your password has been changed',
  );
  const signIn = await page.request.post('/auth/signin', {
    data: { email, password: 'new-e2e-password' },
  });
  expect(signIn.status()).toBe(200);
});
