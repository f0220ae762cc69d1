import { expect, test, type Page } from '@playwright/test';
import {
  islandReady,
  signInThroughApi,
  signInWithCredits,
  uniqueEmail,
} from '../helpers/browser.ts';
import { expectChineseAndFitting, expectLanguageLinks } from '../helpers/i18n.ts';
import { history_sign_in_required } from '../../site/i18n/messages.ts';
import { HISTORY_MESSAGES } from '../../shared/video.ts';

/**
 * Issue 21: the video history in Chinese at /zh/video-history, walked at 390 px by a Chinese
 * browser: signed out (the sign-in prompt), signed in with no videos (the way to the generator)
 * and with a finished video (its card, date and Download); nothing English left but names and
 * the user's own prompt, nothing wider than the screen. The English page stays as it was.
 */

const PHONE = { width: 390, height: 844 };
const ENGLISH_PATH = '/video-history';
const CHINESE_PATH = '/zh/video-history';

/** Opens the Chinese history and waits until every island is live. */
async function openChineseHistory(page: Page) {
  await page.goto(CHINESE_PATH);
  await islandReady(page, 'History', 20_000);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

test('the English sign-in sentence is the one the server sends', () => {
  expect(history_sign_in_required('en')).toBe(HISTORY_MESSAGES.signInRequired);
});

test.describe('the video history in Chinese at 390 px, for a Chinese browser', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  test.setTimeout(90_000);

  test('signed out: Chinese page, names its English version, asks to log in', async ({
    page,
    baseURL,
  }) => {
    await openChineseHistory(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expectLanguageLinks(page, ENGLISH_PATH, CHINESE_PATH, baseURL);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('视频历史记录');
    const prompt = page.getByTestId('history-login');
    await expect(prompt).toContainText('登录后查看你的视频');
    await expect(prompt.getByRole('link', { name: '立即登录' })).toHaveAttribute(
      'href',
      '/zh/login',
    );
    await expectChineseAndFitting(page);
  });

  test('signed in with no videos: the empty state leads to the Chinese generator', async ({
    page,
  }) => {
    await signInThroughApi(page, '韩梅梅', uniqueEmail('zh-empty-history'));
    await openChineseHistory(page);
    const empty = page.getByTestId('history-empty');
    await expect(empty).toContainText('还没有已完成的视频');
    await expect(empty.getByRole('link', { name: '生成视频' })).toHaveAttribute(
      'href',
      '/zh/text-to-veo3-video',
    );
    await expect(page.getByRole('link', { name: '新建视频' })).toHaveAttribute(
      'href',
      '/zh/text-to-veo3-video',
    );
    await expectChineseAndFitting(page);
  });

  test('with a finished video: its card, date and Download are in Chinese', async ({ page }) => {
    await signInWithCredits(page, { name: '李雷', emailTag: 'zh-history' });
    await page.goto('/zh/text-to-veo3-video');
    await islandReady(page, 'Generator', 20_000);
    // The user's own prompt may be in any language; it is the only Latin text allowed.
    const prompt = '雨夜街道上漂流的纸船，slow motion';
    await page.getByTestId('prompt').fill(prompt);
    await page.getByTestId('generate-button').click();
    const panel = page.getByTestId('result-panel');
    await expect(panel).toHaveAttribute('data-state', 'success', { timeout: 60_000 });
    await expect(panel.getByRole('link', { name: '历史记录' })).toHaveAttribute(
      'href',
      CHINESE_PATH,
    );

    await openChineseHistory(page);
    await expect(page.getByRole('heading', { level: 2, name: '你的视频' })).toBeVisible();
    const item = page.getByTestId('history-item');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(prompt);
    await expect(item.locator('.history-card__mode')).toHaveText('文生视频');
    await expect(item.locator('time')).toHaveText(/^\d{4}年\d{1,2}月\d{1,2}日\s*\d{1,2}:\d{2}$/);
    await expect(item.getByTestId('download-button')).toHaveText('下载');
    await expect(item.locator('video')).toHaveAttribute('src', /\/media\/[0-9a-f]{32}\.mp4$/);
    await expect(page.locator('.history-total')).toHaveText('1 个视频');
    await expectChineseAndFitting(page, [prompt]);
  });
});

test('the English history is unchanged and names its Chinese version', async ({
  page,
  baseURL,
}) => {
  await page.goto(ENGLISH_PATH);
  await islandReady(page, 'History', 20_000);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Video History');
  await expect(page.locator('.history-intro__lead')).toHaveText(
    'Your completed videos, newest first. Watch or download any of them.',
  );
  await expect(page.getByRole('link', { name: 'New video' })).toHaveAttribute(
    'href',
    '/text-to-veo3-video',
  );
  const prompt = page.getByTestId('history-login');
  await expect(prompt).toContainText('Sign in to see your videos');
  await expect(prompt.getByRole('link', { name: 'Login Now' })).toHaveAttribute('href', '/login');
  await expect(page.locator('link[rel="alternate"][hreflang="zh-CN"]')).toHaveAttribute(
    'href',
    new URL(CHINESE_PATH, baseURL).href,
  );
});
