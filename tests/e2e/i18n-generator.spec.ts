import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  islandReady,
  signInThroughApi,
  signInWithCredits,
  uniqueEmail,
} from '../helpers/browser.ts';
import {
  expectChineseAndFitting,
  expectLanguageLinks,
  screenshotIfAsked,
} from '../helpers/i18n.ts';

/**
 * Issue 21: the generator in Chinese at /zh/text-to-veo3-video, walked at 390 px by a Chinese
 * browser: the login prompt, a video generated (progress, then the result with its buttons), the
 * image tab; nothing English left but names and the user's own prompt, nothing wider than the
 * screen. The English page stays as it was.
 */

const PHONE = { width: 390, height: 844 };
const ENGLISH_PATH = '/text-to-veo3-video';
const CHINESE_PATH = '/zh/text-to-veo3-video';
/** File sizes and the upload limit are written with unit symbols in Chinese too. */
const UNITS = ['MB', 'KB'];

/** Opens the Chinese generator and waits until every island is live. */
async function openChineseGenerator(page: Page, query = '') {
  await page.goto(`${CHINESE_PATH}${query}`);
  await islandReady(page, 'Generator', 20_000);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

test.describe('the generator in Chinese at 390 px, for a Chinese browser', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  test.setTimeout(90_000);

  test('signed out: Chinese page, names its English version, asks to log in', async ({
    page,
    baseURL,
  }) => {
    await openChineseGenerator(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expectLanguageLinks(page, ENGLISH_PATH, CHINESE_PATH, baseURL);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('用文字或图片生成有声视频');
    await expect(page.getByTestId('tab-text')).toHaveText('文生视频');
    await expect(page.getByTestId('credit-cost')).toHaveText('17 积分');
    const hint = page.getByTestId('credit-hint');
    await expect(hint).toContainText('请登录后生成视频');
    await expect(hint.getByRole('link', { name: '登录' })).toHaveAttribute('href', '/zh/login');
    await expect(page.getByTestId('result-panel')).toContainText('视频将显示在这里');
    await expectChineseAndFitting(page);
  });

  test('without enough credits: the hint and Buy Credits lead to the Chinese pricing page', async ({
    page,
  }) => {
    await signInThroughApi(page, '韩梅梅', uniqueEmail('zh-short'));
    await openChineseGenerator(page);
    const hint = page.getByTestId('credit-hint');
    await expect(hint).toContainText('积分不足（0/17）');
    await expect(hint.getByRole('link', { name: '购买积分' })).toHaveAttribute(
      'href',
      '/zh/pricing',
    );
    await expectChineseAndFitting(page);
  });

  test('signed in with credits: generates a video, in Chinese from start to finish', async ({
    page,
  }) => {
    await signInWithCredits(page, { name: '李雷', emailTag: 'zh-maker' });
    await openChineseGenerator(page);
    await expect(page.getByTestId('tab-text')).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('.gen-balance')).toHaveText('余额：330 积分');
    await expectChineseAndFitting(page);

    // The user's own prompt may be in any language; it is the only Latin text allowed.
    const prompt = '雨夜街道上漂流的纸船，slow motion';
    await page.getByTestId('prompt').fill(prompt);
    await page.getByTestId('generate-button').click();
    const panel = page.getByTestId('result-panel');
    await expect(panel).toHaveAttribute('data-state', 'generating');
    await expect(panel.getByText('正在生成视频', { exact: true })).toBeVisible();
    await expect(panel.getByRole('progressbar', { name: '视频生成进度' })).toBeVisible();
    await expect(page.getByTestId('header-credits')).toHaveAttribute('aria-label', '313 积分');
    await expectChineseAndFitting(page, [prompt]);

    await expect(panel).toHaveAttribute('data-state', 'success', { timeout: 60_000 });
    await expect(page.getByTestId('result-video')).toHaveAttribute('aria-label', '你生成的视频');
    await expect(page.getByTestId('download-button')).toHaveText('下载');
    await expect(page.getByTestId('generate-new')).toHaveText('再生成一个');
    await screenshotIfAsked(page, 'generated');
    // The video is kept in the Chinese history page.
    await expect(panel.getByRole('link', { name: '历史记录' })).toHaveAttribute(
      'href',
      '/zh/video-history',
    );
    await expectChineseAndFitting(page, [prompt]);

    await page.getByTestId('generate-new').click();
    await expect(panel).toHaveAttribute('data-state', 'idle');
  });

  test('a failed video: the error panel and Try Again are in Chinese', async ({ page }) => {
    await signInWithCredits(page, { name: '李雷', emailTag: 'zh-maker' });
    await openChineseGenerator(page);
    const prompt = 'FAIL: 故意失败的视频';
    await page.getByTestId('prompt').fill(prompt);
    await page.getByTestId('generate-button').click();
    const panel = page.getByTestId('result-panel');
    await expect(panel).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
    await expect(panel.getByText('视频生成失败', { exact: true })).toBeVisible();
    await expect(page.getByTestId('try-again')).toHaveText('重试');
    await expectChineseAndFitting(page, [prompt]);
    await page.getByTestId('try-again').click();
    await expect(panel).toHaveAttribute('data-state', 'idle');
  });

  test('image tab: the upload, its preview and its checks are in Chinese', async ({ page }) => {
    await signInWithCredits(page, { name: '李雷', emailTag: 'zh-maker' });
    await openChineseGenerator(page, '?type=image');
    await expect(page.getByTestId('tab-image')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('image-upload')).toContainText('点击上传，或把图片拖到这里');
    await expectChineseAndFitting(page, UNITS);

    // A prompt without an image is refused in Chinese.
    await page.getByTestId('prompt').fill('照片里的天空慢慢推近');
    await page.getByTestId('generate-button').click();
    await expect(page.getByTestId('form-error')).toHaveText(
      '图生视频模式需要一张图片，请上传图片。',
    );
    await expectChineseAndFitting(page, UNITS);

    const png = await sharp({
      create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 90, b: 220 } },
    })
      .png()
      .toBuffer();
    await page
      .getByTestId('image-upload')
      .locator('input[type=file]')
      .setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByAltText('所选图片的预览')).toBeVisible();
    await expect(page.getByTestId('remove-image')).toHaveAttribute(
      'aria-label',
      '移除图片 blue.png',
    );
    // The file's own name is the user's.
    await expectChineseAndFitting(page, [...UNITS, 'blue.png']);
  });
});

test('the English generator is unchanged and names its Chinese version', async ({
  page,
  baseURL,
}) => {
  await page.goto(ENGLISH_PATH);
  await islandReady(page, 'Generator', 20_000);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Create a video with sound from text or an image',
  );
  await expect(page.getByTestId('tab-text')).toHaveText('Text to Video');
  await expect(page.getByTestId('credit-cost')).toHaveText('17 credits');
  await expect(page.getByTestId('credit-hint')).toContainText('Please login to generate videos');
  await expect(page.locator('link[rel="alternate"][hreflang="zh-CN"]')).toHaveAttribute(
    'href',
    new URL(CHINESE_PATH, baseURL).href,
  );
  await expect(page.getByTestId('result-panel')).toContainText('Your video will appear here');
});
