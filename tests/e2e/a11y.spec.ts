/**
 * Accessibility (issue 6 "Tests that must exist"): axe-core on every public page (from the
 * sitemap) and on the private pages a signed-out visitor sees, at desktop and phone widths.
 * Serious and critical violations fail; the message lists each one with where it is.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { SIGNED_OUT_PAGES, publicPaths, settle } from './site-pages.ts';

test.setTimeout(420_000);

type Result = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

const FAILING_IMPACTS = new Set(['serious', 'critical']);

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

async function audit(page: Page, path: string): Promise<string[]> {
  const response = await page.goto(path);
  expect.soft(response?.status(), `${path}: status`).toBe(200);
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => describe(path, violation));
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('no page has a serious or critical axe violation', async ({ page, request }) => {
      const paths = [...(await publicPaths(request)), ...SIGNED_OUT_PAGES];
      const report: string[] = [];
      for (const path of paths) {
        await test.step(path, async () => {
          report.push(...(await audit(page, path)));
        });
      }
      expect(report, `axe violations at ${viewport.width} px:\n\n${report.join('\n\n')}\n`).toEqual(
        [],
      );
    });
  });
}
