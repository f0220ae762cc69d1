/**
 * Accessibility (issue 6 "Tests that must exist"): axe-core on every public page (from the
 * sitemap), on the private pages a signed-out visitor sees and on the gallery's embed page, at
 * desktop width; at phone width on one page of each page-table row in each language.
 * Serious and critical violations fail; the message lists each one with where it is. The
 * phone-width walk also checks that every page fits 390 px without sideways scrolling, and the
 * desktop walk each public page's search and share metadata (tests/e2e/page-head.ts): one visit
 * per page and width for all three, the walks being the longest tests of the suite.
 *
 * Why one page per row at phone width: a row is one page in each language, except the rows
 * filled from data (the articles, the blog's later list pages, the gallery's frames), whose pages
 * share one template and differ only in an editor's text. What the narrow layout changes (the
 * folded header, stacked sections, wrapped tables) is in the template, so one of those pages per
 * language stands for the rest, while every page is still loaded and checked for its width, and
 * every page gets the full axe run at desktop width.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import gallery from '../../content/gallery.json' with { type: 'json' };
import { localeOfPath, pageAt } from '../../shared/pages.ts';
import { checkPublicHead } from './page-head.ts';
import { SIGNED_OUT_PAGES, publicPaths, settle } from './site-pages.ts';

test.setTimeout(420_000);

type Result = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

const FAILING_IMPACTS = new Set(['serious', 'critical']);

/**
 * The page the home gallery frames (one template for every clip). It is not in the sitemap, and
 * the home page builds its frames only as the cards near the screen, so the walk visits it itself.
 */
const FRAMED_PAGE = `/embed/${gallery[0]!.id}`;

/** One violation as a few readable lines: rule, impact, help link and the first elements. */
function describe(path: string, violation: Result): string {
  const nodes = violation.nodes.slice(0, 5).map((node) => {
    const target = node.target.map(String).join(' ');
    const summary = (node.failureSummary ?? '').replace(/\s+/g, ' ').trim();
    return `    - ${target}\n      ${node.html.slice(0, 160)}\n      ${summary}`;
  });
  const more = violation.nodes.length > 5 ? [`    … and ${violation.nodes.length - 5} more`] : [];
  return [
    `${path}: [${violation.impact}] ${violation.id}: ${violation.help}`,
    `    ${violation.helpUrl}`,
    ...nodes,
    ...more,
  ].join('\n');
}

/** Where a page is wider than the screen, naming the widest elements so the report says where. */
async function tooWide(page: Page, path: string, screen: number): Promise<string[]> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width <= screen) return [];
  const culprits = await page.evaluate(
    (limit) =>
      [...document.querySelectorAll<HTMLElement>('body *')]
        .filter((el) => el.getBoundingClientRect().right > limit)
        .filter(
          (el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= limit,
        )
        .slice(0, 5)
        .map((el) => {
          const cls =
            el.className && typeof el.className === 'string'
              ? `.${el.className.trim().split(/\s+/).join('.')}`
              : '';
          return `${el.tagName.toLowerCase()}${cls} (right edge ${Math.round(el.getBoundingClientRect().right)} px)`;
        }),
    screen + 1,
  );
  return [`${path}: ${width} px wide, more than the ${screen} px screen; ${culprits.join(', ')}`];
}

/** The first page of each page-table row in each language, in walk order. */
function onePerRow(paths: readonly string[]): Set<string> {
  const rows = new Map<string, string>();
  for (const path of paths) {
    const key = `${localeOfPath(path)} ${pageAt(path)?.path ?? path}`;
    if (!rows.has(key)) rows.set(key, path);
  }
  return new Set(rows.values());
}

/** What a visit checks besides the page's width at phone size. */
interface Checks {
  axe: boolean;
  /** Run on the page as loaded, before its islands run: what a crawler reads. */
  head?: () => Promise<void>;
}

async function audit(page: Page, path: string, screen: number, checks: Checks): Promise<string[]> {
  const response = await page.goto(path);
  expect.soft(response?.status(), `${path}: status`).toBe(200);
  await checks.head?.();
  await settle(page);
  const wide = screen <= 390 ? await tooWide(page, path, screen) : [];
  if (!checks.axe) return wide;
  // Every rule still runs; only the violations are gathered into the results, so the page has
  // less to build and send back.
  const { violations } = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .analyze();
  return [
    ...wide,
    ...violations
      .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
      .map((violation) => describe(path, violation)),
  ];
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    const phone = viewport.width <= 390;
    const title = phone
      ? "no page of the page table's rows has a serious or critical axe violation, and every page fits the screen without sideways scrolling"
      : 'every public page has one h1, its own canonical URL, a description, share cards and valid JSON-LD, and no page has a serious or critical axe violation';
    test(title, async ({ page, request, baseURL }) => {
      const publicPages = await publicPaths(request);
      expect(publicPages.length).toBeGreaterThan(0);
      const paths = [...publicPages, ...SIGNED_OUT_PAGES, FRAMED_PAGE];
      const axePaths = phone ? onePerRow(paths) : new Set(paths);
      // The search and share metadata of the public pages (seo.spec.ts has the rest), read as
      // the desktop walk loads them rather than in a walk of its own.
      const headChecked = new Set(phone ? [] : publicPages);
      const images = new Map<string, number>();
      const report: string[] = [];
      for (const path of paths) {
        await test.step(axePaths.has(path) ? path : `${path} (width only)`, async () => {
          const checks: Checks = {
            axe: axePaths.has(path),
            head: headChecked.has(path)
              ? () => checkPublicHead(page, request, path, baseURL, images)
              : undefined,
          };
          report.push(...(await audit(page, path, viewport.width, checks)));
        });
      }
      expect(report, `problems at ${viewport.width} px:\n\n${report.join('\n\n')}\n`).toEqual([]);
    });
  });
}
