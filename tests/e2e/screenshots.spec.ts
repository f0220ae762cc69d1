/**
 * Full-page screenshots of every public page (from the sitemap) and the signed-out private pages
 * at 1280 and 390 px, into .test-output/screenshots/{page}-{width}.png, for a person to look
 * at. Only with SCREENSHOTS=1:
 *   SCREENSHOTS=1 E2E_DATA_DIR=.test-output/e2e-shots npx playwright test tests/e2e/screenshots.spec.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from '@playwright/test';
import { SIGNED_OUT_PAGES, pageName, publicPaths, scrollThrough, settle } from './site-pages.ts';

const OUT_DIR = path.resolve('.test-output/screenshots');

test.skip(process.env.SCREENSHOTS !== '1', 'set SCREENSHOTS=1 to take the screenshots');
test.setTimeout(300_000);

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport, isMobile: viewport.width < 768, hasTouch: viewport.width < 768 });

    test('every page, full length', async ({ page, request }) => {
      mkdirSync(OUT_DIR, { recursive: true });
      const paths = [...(await publicPaths(request)), ...SIGNED_OUT_PAGES];
      const files: string[] = [];
      for (const pagePath of paths) {
        await test.step(pagePath, async () => {
          await page.goto(pagePath);
          await settle(page);
          // Once through, so `client:visible` islands, lazy images and gallery frames load.
          await scrollThrough(page);
          await settle(page);
          const file = `${pageName(pagePath)}-${viewport.width}.png`;
          await page.screenshot({ path: path.join(OUT_DIR, file), fullPage: true });
          files.push(`${pagePath}\t${file}`);
        });
      }
      writeFileSync(path.join(OUT_DIR, `pages-${viewport.width}.tsv`), `${files.join('\n')}\n`);
    });
  });
}
