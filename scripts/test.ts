/**
 * `npm test`: formatter, linter, type checks, Vitest (unit + API, on PGlite and, with
 * TEST_DATABASE_URL, PostgreSQL), Playwright (e2e on Debian's Chromium) and the short resilience
 * suite (tests/resilience). Every step runs even when an earlier one fails. It prints each
 * phase's wall time (also written to .test-output/phases.json for .ci/run), and its last line is
 * `N passed, N failed` summed over all of them; an e2e test that passed only on retry counts as
 * failed (flaky is failed).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.test-output');
mkdirSync(out, { recursive: true });
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

let passed = 0;
let failed = 0;
const lines: string[] = [];
/** Wall seconds per phase, in order. */
const phases: Array<[string, number]> = [];
let phase: { name: string; started: number } | null = null;

/** Starts timing a phase (ending the one before). */
function beginPhase(name: string): void {
  endPhase();
  phase = { name, started: performance.now() };
}

function endPhase(): void {
  if (!phase) return;
  phases.push([phase.name, (performance.now() - phase.started) / 1000]);
  phase = null;
}

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

/**
 * A command in the background, its output kept and printed in one piece when it ends, so two
 * such commands can share the machine's two cores without interleaving their lines.
 */
function runQuietly(label: string, cmd: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    const finish = (ok: boolean) => {
      console.log(`\n▶ ${label}: ${path.basename(cmd)} ${args.join(' ')}`);
      process.stdout.write(Buffer.concat(output));
      resolve(ok);
    };
    child.once('error', () => finish(false));
    child.once('close', (code) => finish(code === 0));
  });
}

/** Runs checks one after another in the background; each counts as one test. */
async function checkChain(
  steps: Array<[label: string, cmd: string, args: string[], counted?: false]>,
) {
  for (const [label, cmd, args, counted] of steps) {
    const ok = await runQuietly(label, cmd, args);
    if (counted === false) continue;
    if (ok) passed += 1;
    else failed += 1;
    lines.push(`${ok ? '✓' : '✗'} ${label}`);
  }
}

/** What `npm run lint:imports` checks: every module of the tree, against .dependency-cruiser.cjs. */
const DEPCRUISE_ARGS = [
  'server',
  'shared',
  'site',
  'scripts',
  'tests',
  'astro.config.mjs',
  'astro.articles.config.mjs',
  '--config',
  '.dependency-cruiser.cjs',
  '--output-type',
  'err',
] as const;

beginPhase('lint and types');
// Two chains side by side: each tool runs on one core.
await Promise.all([
  checkChain([
    ['format', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
    ['lint', bin('eslint'), ['--max-warnings', '0', '.']],
    // Import rules and circles (.dependency-cruiser.cjs), then unused exports and files (knip.json).
    ['imports (dependency-cruiser)', bin('depcruise'), [...DEPCRUISE_ARGS]],
    ['unused code (knip)', bin('knip'), []],
  ]),
  checkChain([
    // astro sync writes .astro/types.d.ts (the astro:content module) that tsc needs on a fresh clone.
    ['astro sync', bin('astro'), ['sync'], false],
    ['types (tsc)', bin('tsc'), ['--noEmit', '-p', '.']],
    ['types (astro check)', bin('astro'), ['check', '--tsconfig', 'tsconfig.site.json']],
  ]),
]);

// The sample clips the e2e specs play, rendered beside Vitest at the lowest CPU priority (it
// leaves little idle), so the e2e server finds them in its cache instead of rendering first.
const prerender = spawn(
  process.execPath,
  [path.join(root, 'tests', 'e2e', 'prerender-samples.ts'), '--low-priority'],
  { cwd: root, stdio: 'inherit' },
);
const prerendered = new Promise<void>((resolve) => {
  prerender.once('exit', () => resolve());
  prerender.once('error', () => resolve()); // serve.ts renders them then
});

// Vitest
beginPhase('vitest');
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
beginPhase('playwright');
await prerendered;
const pwJson = path.join(out, 'playwright.json');
rmSync(pwJson, { force: true });
const pwOk = run('e2e tests', bin('playwright'), ['test', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
});
if (existsSync(pwJson)) {
  const report = JSON.parse(readFileSync(pwJson, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    errors?: unknown[];
    suites?: PlaywrightSuite[];
  };
  const { expected, unexpected, flaky } = report.stats;
  // Flaky is failed: a test that needed its retry is a bug to fix, not a pass.
  passed += expected;
  failed += unexpected + flaky;
  if (!pwOk && unexpected === 0) failed += Math.max(1, report.errors?.length ?? 1);
  const flakyNote = flaky > 0 ? ` (${flaky} passed only on retry: ${flakyTitles(report)})` : '';
  lines.push(
    `${pwOk && flaky === 0 ? '✓' : '✗'} playwright: ${expected} passed, ${unexpected + flaky} failed${flakyNote}`,
  );
} else {
  failed += 1;
  lines.push('✗ playwright: no report');
}

// Resilience, short profile, against real processes; each invariant it checks counts as one
// test. `npm test` runs the two that guard money and the queue against real processes: a crash
// under load (the load scenario's users, with the server killed and restarted: no 5xx while up,
// the ledger sums, every failed video refunded once, no task lost) and parallel subscription
// payments on two APIs (one subscription each). The others (the plain load, slow connections,
// large bodies, two instances, several machines) run in `npm run test:resilience` and the bench;
// on a two-core machine they took three of CI's twenty minutes. RESILIENCE_ONLY picks others.
const RESILIENCE_IN_NPM_TEST = 'crash,pays';
beginPhase('resilience');
const resilienceJson = path.join(out, 'resilience.json');
rmSync(resilienceJson, { force: true });
const resilienceOk = run(
  'resilience (short)',
  process.execPath,
  [path.join(root, 'tests', 'resilience', 'run.ts')],
  {
    RESILIENCE_PROFILE: 'short',
    RESILIENCE_REPORT: resilienceJson,
    RESILIENCE_ONLY: process.env.RESILIENCE_ONLY || RESILIENCE_IN_NPM_TEST,
  },
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

endPhase();
writeFileSync(path.join(out, 'phases.json'), JSON.stringify(phases));
console.log(`\n${lines.join('\n')}`);
console.log(phases.map(([name, seconds]) => `⏱ ${name}: ${seconds.toFixed(0)} s`).join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

interface PlaywrightSuite {
  title: string;
  specs?: Array<{ title: string; tests: Array<{ status: string }> }>;
  suites?: PlaywrightSuite[];
}

/** The titles of the tests Playwright marked flaky (passed only on a retry). */
function flakyTitles(report: { suites?: PlaywrightSuite[] }): string {
  const titles: string[] = [];
  const walk = (suite: PlaywrightSuite, prefix: string) => {
    const here = [prefix, suite.title].filter(Boolean).join(' › ');
    for (const spec of suite.specs ?? []) {
      if (spec.tests.some((t) => t.status === 'flaky')) titles.push(`${here} › ${spec.title}`);
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, '');
  return titles.join('; ');
}
