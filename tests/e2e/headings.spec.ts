/**
 * Issue 33 item 5: every page has exactly one <h1> in its HTML, as the server sends it: before
 * any script runs (a crawler that runs none, a screen reader on a slow phone, the first paint).
 * The walk is every HTML page of the live release, in both languages, and it must hold every
 * page of the page table (shared/pages.ts) in each of its languages.
 */
import { expect, test } from '@playwright/test';
import { PAGES, isHtmlPage, isPattern, pageAt, pageLocales, pathIn } from '../../shared/pages.ts';
import { builtPages, servedAt } from './site-pages.ts';

test('every page has exactly one <h1> in the HTML the server sends', async ({ request }) => {
  const pages = builtPages();
  for (const row of PAGES.filter((row) => isHtmlPage(row) && !isPattern(row))) {
    for (const locale of pageLocales(row)) {
      expect(pages, `the release holds ${row.path} in ${locale}`).toContain(
        pathIn(row.path, locale),
      );
    }
  }

  const counts = await Promise.all(
    pages.map(async (path) => {
      const response = await request.get(servedAt(path));
      expect(response.status(), `${path} is served`).toBe(200);
      return { path, h1s: (await response.text()).match(/<h1[\s>]/gi)?.length ?? 0 };
    }),
  );
  for (const { path, h1s } of counts) {
    expect(pageAt(path), `${path} is a page of the table`).toBeDefined();
    expect.soft(h1s, `${path}: <h1> elements in its HTML`).toBe(1);
  }
});
