/**
 * Accessibility (issue 6 "Tests that must exist"): axe-core on every public page (from the
 * sitemap), on the private pages a signed-out visitor sees and on the gallery's embed page, at
 * desktop and phone widths.
 * Serious and critical violations fail; the message lists each one with where it is. The
 * phone-width walk also checks that every page fits 390 px without sideways scrolling (one visit
 * per page for both: the walks are the longest tests of the suite).
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import gallery from '../../content/gallery.json' with { type: 'json' };
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

async function audit(page: Page, path: string, screen: number): Promise<string[]> {
  const response = await page.goto(path);
  expect.soft(response?.status(), `${path}: status`).toBe(200);
  await settle(page);
  const wide = screen <= 390 ? await tooWide(page, path, screen) : [];
  const { violations } = await new AxeBuilder({ page }).analyze();
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

    const title =
      viewport.width <= 390
        ? 'no page has a serious or critical axe violation, and every page fits the screen without sideways scrolling'
        : 'no page has a serious or critical axe violation';
    test(title, async ({ page, request }) => {
      const paths = [...(await publicPaths(request)), ...SIGNED_OUT_PAGES, FRAMED_PAGE];
      const report: string[] = [];
      for (const path of paths) {
        await test.step(path, async () => {
          report.push(...(await audit(page, path, viewport.width)));
        });
      }
      expect(report, `problems at ${viewport.width} px:\n\n${report.join('\n\n')}\n`).toEqual([]);
    });
  });
}
