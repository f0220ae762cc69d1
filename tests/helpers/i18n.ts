/**
 * Checks of a page in Chinese (issue 21): no English left in what a person reads, nothing wider
 * than the screen. Shared by the tests/e2e/i18n*.spec.ts walks.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** Latin words a Chinese page may show: names, formats, and the switch back to English. */
export const ALLOWED_LATIN =
  /Veo3 Studio|Veo 3|Veo3|Google|Gemini|Stripe|API|English|Cookie|AI|HD|MP4|JPG|PNG|GIF|Pro\+?|Lite|Starter|Basic|Standard|[\w.+-]+@[\w.-]+/g;

/**
 * The visible text of the page (or of one part of it) with allowed names removed: the Latin
 * words left, which must be none on a Chinese page. `allow` adds words this page may show (a
 * user's own prompt, say).
 */
export async function latinWordsLeft(
  page: Page,
  { selector = 'body', allow = [] as string[] } = {},
): Promise<string[]> {
  let text = await page.locator(selector).innerText();
  for (const word of allow) text = text.split(word).join(' ');
  return [...new Set(text.replace(ALLOWED_LATIN, ' ').match(/[A-Za-z]{2,}/g) ?? [])];
}

/** Elements wider than the viewport (text that does not wrap, a row that does not fit). */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.right > width + 1 && getComputedStyle(el).position !== 'fixed';
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
  });
}

/** The page shows no English (but `allow`) and nothing wider than the screen. */
export async function expectChineseAndFitting(page: Page, allow: string[] = []): Promise<void> {
  expect(await latinWordsLeft(page, { allow })).toEqual([]);
  expect(await overflowing(page)).toEqual([]);
}

/**
 * The page names both its versions in hreflang (en, zh-CN, and x-default: the English one) and
 * `current` as its canonical URL. `english` is the English page's path; `chinese` the Chinese
 * one's, by default the English path under /zh (a translated article has its own slug).
 */
export async function expectLanguageLinks(
  page: Page,
  english: string,
  current: string,
  baseURL: string | undefined,
  chinese = english === '/' ? '/zh' : `/zh${english}`,
): Promise<void> {
  const alternates = await page
    .locator('link[rel="alternate"][hreflang]')
    .evaluateAll((links) => links.map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]));
  expect(alternates).toEqual([
    ['en', new URL(english, baseURL).href],
    ['zh-CN', new URL(chinese, baseURL).href],
    ['x-default', new URL(english, baseURL).href],
  ]);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    new URL(current, baseURL).href,
  );
}

/** Where the Chinese walks put their screenshots (with SCREENSHOTS=1). */
export const WALK_SHOTS_DIR = path.resolve('.test-output/screenshots/zh-walks');

/**
 * With SCREENSHOTS=1, a screenshot of the screen as it is now, named after the step, for the
 * note's "what a person sees" (the walks run the same either way).
 */
export async function screenshotIfAsked(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  mkdirSync(WALK_SHOTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(WALK_SHOTS_DIR, `${name}-${width}.png`) });
}
