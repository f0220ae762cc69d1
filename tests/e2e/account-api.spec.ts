/**
 * Issue 36 in the browser: /account/api. A key is created with every permission, shown once
 * (after a reload only its prefix is left), works on /v1 and is refused there once revoked; in
 * Chinese on a phone, a webhook endpoint is added (its secret shown once), its secret rotated
 * and the endpoint deleted, each after a confirmation, without the page growing wider than the
 * screen.
 */
import { expect, test } from '@playwright/test';
import { API_KEY_SHOWN_LENGTH, API_SCOPES } from '../../shared/public-api.ts';
import { islandReady, signInThroughApi, uniqueEmail } from '../helpers/browser.ts';

test('a new key is shown once, works on /v1 and is refused once revoked', async ({ page }) => {
  await signInThroughApi(page, 'Developer', uniqueEmail('api-key'));
  await page.goto('/account/api');
  await islandReady(page, 'ApiAccess', 20_000);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('API keys and webhooks');
  const keys = page.getByTestId('apiaccess-keys');
  await expect(keys.getByTestId('apiaccess-key-count')).toHaveText('0 of 10 keys in use');

  await keys.getByTestId('apiaccess-create-key').click();
  const form = keys.getByTestId('apiaccess-key-form');
  await expect(form.getByLabel('Name')).toBeFocused();
  for (const scope of API_SCOPES) {
    await expect(form.getByRole('checkbox', { name: new RegExp(scope) })).toBeChecked();
  }
  await form.getByLabel('Name').fill('CI script');
  await form.getByRole('button', { name: 'Create key' }).click();

  const shown = keys.getByTestId('apiaccess-new-key');
  await expect(shown).toContainText("you won't see this key again");
  const key = (await shown.getByTestId('apiaccess-new-key-value').textContent())!.trim();
  expect(key).toMatch(/^vs_live_[0-9A-Za-z]{40,}$/);
  await expect(keys.getByTestId('apiaccess-key-count')).toHaveText('1 of 10 keys in use');

  // Once the page is left, only the prefix is ever shown again.
  await page.reload();
  await islandReady(page, 'ApiAccess', 20_000);
  await expect(keys.getByTestId('apiaccess-key-prefix')).toHaveText(
    `${key.slice(0, API_KEY_SHOWN_LENGTH)}…`,
  );
  expect(await page.content()).not.toContain(key);

  const bearer = { authorization: `Bearer ${key}` };
  expect((await page.request.get('/v1/credits', { headers: bearer })).status()).toBe(200);

  await keys.getByRole('button', { name: 'Revoke the key “CI script”' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Revoke the key “CI script”?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(dialog).toBeHidden();
  await expect(keys.getByRole('status')).toHaveText('The key “CI script” was revoked.');
  await expect(keys.getByTestId('apiaccess-key-count')).toHaveText('0 of 10 keys in use');
  expect((await page.request.get('/v1/credits', { headers: bearer })).status()).toBe(401);
});

test.describe('in Chinese on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a webhook endpoint is added, its secret rotated, and deleted', async ({
    page,
    baseURL,
  }) => {
    await signInThroughApi(page, '开发者', uniqueEmail('api-hook'));
    await page.goto('/zh/account/api');
    await islandReady(page, 'ApiAccess', 20_000);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('API 密钥与 Webhook');
    const hooks = page.getByTestId('apiaccess-webhooks');
    await expect(hooks.getByText('你还没有 Webhook 端点。')).toBeVisible();

    // The e2e server's own address: OUTBOUND_ALLOW_HOSTS lets it through the address guard.
    const url = `${baseURL}/hook`;
    await hooks.getByTestId('apiaccess-add-endpoint').click();
    const form = hooks.getByTestId('apiaccess-endpoint-form');
    await form.getByLabel('端点地址').fill(url);
    await form.getByRole('checkbox', { name: /credits\.low/ }).check();
    await expect(form.getByLabel('余额提醒阈值（积分）')).toHaveValue('50');
    await form.getByRole('button', { name: '添加端点' }).click();

    const shown = hooks.getByTestId('apiaccess-new-secret');
    await expect(shown).toContainText('此密钥不会再次显示');
    const first = (await shown.getByTestId('apiaccess-new-secret-value').textContent())!.trim();
    expect(first).toMatch(/^whsec_/);
    const endpoint = hooks.getByTestId('apiaccess-endpoint');
    await expect(endpoint).toContainText(url);
    await expect(endpoint).toContainText('credits.low');

    await endpoint.getByTestId('apiaccess-rotate').click();
    const rotate = page.getByRole('alertdialog', { name: `轮换 ${url} 的签名密钥？` });
    await expect(rotate).toContainText('24 小时');
    await rotate.getByRole('button', { name: '轮换密钥' }).click();
    await expect(rotate).toBeHidden();
    const second = hooks.getByTestId('apiaccess-new-secret-value');
    await expect(second).toHaveText(/^whsec_/);
    expect((await second.textContent())!.trim()).not.toBe(first);
    await expect(endpoint).toContainText('旧密钥在');
    await hooks.getByRole('button', { name: '我已保存' }).click();
    await expect(hooks.getByTestId('apiaccess-new-secret')).toHaveCount(0);

    await endpoint.getByTestId('apiaccess-delete').click();
    const remove = page.getByRole('alertdialog', { name: `删除端点 ${url}？` });
    await remove.getByRole('button', { name: '删除端点' }).click();
    await expect(hooks.getByRole('status')).toHaveText(`端点 ${url} 已删除。`);
    await expect(hooks.getByText('你还没有 Webhook 端点。')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});
