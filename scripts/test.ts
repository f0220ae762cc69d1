/**
 * `npm test`: formatter, linter, type checks, Vitest (unit + API, on PGlite and, with
 * TEST_DATABASE_URL, PostgreSQL), Playwright (e2e on Debian's Chromium) and the short resilience
 * suite (tests/resilience). Every step runs even when an earlier one fails; the last line is
 * `N passed, N failed` summed over all of them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.test-output');
mkdirSync(out, { recursive: true });
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

let passed = 0;
let failed = 0;
const lines: string[] = [];

function run(
  label: string,
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): boolean {
  console.log(`\n▶ ${label}: ${path.basename(cmd)} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

function check(label: string, cmd: string, args: string[]): void {
  const ok = run(label, cmd, args);
  if (ok) passed += 1;
  else failed += 1;
  lines.push(`${ok ? '✓' : '✗'} ${label}`);
}

check('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']);
check('lint', bin('eslint'), ['--max-warnings', '0', '.']);
// astro sync writes .astro/types.d.ts (the astro:content module) that tsc needs on a fresh clone.
run('astro sync', bin('astro'), ['sync']);
check('types (tsc)', bin('tsc'), ['--noEmit', '-p', '.']);
check('types (astro check)', bin('astro'), ['check', '--tsconfig', 'tsconfig.site.json']);

// The site's sample clips, rendered once into the shared cache: every later site build (API
// tests, the e2e server) then only links them.
check('sample clips', process.execPath, [path.join(root, 'scripts', 'render-samples.ts')]);

// Vitest
const vitestJson = path.join(out, 'vitest.json');
rmSync(vitestJson, { force: true });
const vitestOk = run('unit + api tests', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numTotalTestSuites: number;
    numFailedTestSuites: number;
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A suite that fails to load has no failed tests of its own: count it so it cannot hide.
  if (!vitestOk && report.numFailedTests === 0) failed += Math.max(1, report.numFailedTestSuites);
  lines.push(
    `${vitestOk ? '✓' : '✗'} vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed`,
  );
} else {
  failed += 1;
  lines.push('✗ vitest: no report');
}

// Playwright
const pwJson = path.join(out, 'playwright.json');
rmSync(pwJson, { force: true });
const pwOk = run('e2e tests', bin('playwright'), ['test', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
});
if (existsSync(pwJson)) {
  const report = JSON.parse(readFileSync(pwJson, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    errors?: unknown[];
  };
  const { expected, unexpected, flaky } = report.stats;
  passed += expected + flaky;
  failed += unexpected;
  if (!pwOk && unexpected === 0) failed += Math.max(1, report.errors?.length ?? 1);
  lines.push(`${pwOk ? '✓' : '✗'} playwright: ${expected + flaky} passed, ${unexpected} failed`);
} else {
  failed += 1;
  lines.push('✗ playwright: no report');
}

// Resilience, short profile: load, crash and two instances against real processes; each
// invariant it checks counts as one test.
const resilienceJson = path.join(out, 'resilience.json');
rmSync(resilienceJson, { force: true });
const resilienceOk = run(
  'resilience (short)',
  process.execPath,
  [path.join(root, 'tests', 'resilience', 'run.ts')],
  { RESILIENCE_PROFILE: 'short', RESILIENCE_REPORT: resilienceJson },
);
if (existsSync(resilienceJson)) {
  const report = JSON.parse(readFileSync(resilienceJson, 'utf8')) as {
    passed: number;
    failed: number;
  };
  passed += report.passed;
  failed += report.failed;
  if (!resilienceOk && report.failed === 0) failed += 1;
  lines.push(
    `${resilienceOk ? '✓' : '✗'} resilience: ${report.passed} passed, ${report.failed} failed`,
  );
} else {
  failed += 1;
  lines.push('✗ resilience: no report');
}

console.log(`\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
