/**
 * `npm test`: formatter, linter, type checks, Vitest (unit + API, on PGlite and, with
 * TEST_DATABASE_URL, PostgreSQL), Playwright (e2e on Debian's Chromium) and the short resilience
 * suite (tests/resilience). Every step runs even when an earlier one fails. It prints each
 * phase's wall time (also written to .test-output/phases.json for .ci/run), and its last line is
 * `N passed, N failed` summed over all of them; an e2e test that passed only on retry counts as
 * failed (flaky is failed).
 *
 * On two cores the run is bound by CPU, so what can wait for a free core runs beside Vitest,
 * whose workers leave one idle whenever a test waits on a child process, a server or PostgreSQL:
 * the format, lint and type checks at the lowest priority, and the e2e server (its sample clips,
 * then its first site build), which Playwright then finds live.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants as osConstants, setPriority } from 'node:os';
import path from 'node:path';
import { withProjectBuildLock } from '../server/domains/site-build/build-lock.ts';
import { E2E_READY_PATH } from '../tests/e2e/server-env.ts';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.test-output');
mkdirSync(out, { recursive: true });
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

// Every Node process of the run (Vitest's workers, the servers and CLIs the tests start, the
// checks, Playwright's workers, the e2e server) keeps V8's compiled code for the modules it
// loads in one cache, so the next process loading them skips most of that compiling (importing
// the app took a quarter less CPU).
process.env.NODE_COMPILE_CACHE ??= path.join(root, 'node_modules', '.cache', 'node-compile');

let passed = 0;
let failed = 0;
const lines: string[] = [];
/** Wall seconds per phase, in the order they ended; phases beside another say so. */
const phases: Array<[string, number]> = [];

/** Runs `fn` and records its wall time as phase `name`. */
async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    phases.push([name, (performance.now() - started) / 1000]);
  }
}

/** A command with the terminal as its output; true when it exits 0. */
function run(
  label: string,
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<boolean> {
  console.log(`\n▶ ${label}: ${path.basename(cmd)} ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
}

/** Lowest CPU priority: the process gets a core only when nothing else wants it. */
function yieldCpu(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    setPriority(child.pid, osConstants.priority.PRIORITY_LOW);
  } catch {
    // Not allowed here: it runs at normal priority.
  }
}

/**
 * A command in the background (at the lowest priority unless told otherwise), its output kept and
 * printed in one piece when it ends, so it can share the machine with Vitest without
 * interleaving their lines.
 */
function runQuietly(
  label: string,
  cmd: string,
  args: string[],
  { lowPriority = true } = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    if (lowPriority) yieldCpu(child);
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

interface Check {
  label: string;
  cmd: string;
  args: string[];
  /** Not a test of its own (a preparation step). */
  uncounted?: true;
  /**
   * Astro writes the checkout's `.astro/` as the site builds do: the step holds the build lock
   * they take (server/domains/site-build/build-lock.ts), so it never runs during one, and it runs
   * at normal priority, so a build waiting for it does not wait for an idle core as well.
   */
  astro?: true;
}

/** Runs checks one after another in the background; each counts as one test. */
async function checkChain(steps: Check[]) {
  for (const step of steps) {
    const go = () => runQuietly(step.label, step.cmd, step.args, { lowPriority: !step.astro });
    const ok = step.astro ? await withProjectBuildLock(root, go) : await go();
    if (step.uncounted) continue;
    if (ok) passed += 1;
    else failed += 1;
    lines.push(`${ok ? '✓' : '✗'} ${step.label}`);
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

// Two chains side by side, each tool on one core when Vitest leaves it one.
const checks = timed('lint and types (beside vitest)', () =>
  Promise.all([
    checkChain([
      { label: 'format', cmd: bin('prettier'), args: ['--check', '--log-level', 'warn', '.'] },
      { label: 'lint', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
      // Import rules and circles (.dependency-cruiser.cjs), then unused exports and files (knip.json).
      { label: 'imports (dependency-cruiser)', cmd: bin('depcruise'), args: [...DEPCRUISE_ARGS] },
      { label: 'unused code (knip)', cmd: bin('knip'), args: [] },
    ]),
    checkChain([
      // astro sync writes .astro/types.d.ts (the astro:content module) that tsc needs on a fresh clone.
      { label: 'astro sync', cmd: bin('astro'), args: ['sync'], uncounted: true, astro: true },
      { label: 'types (tsc)', cmd: bin('tsc'), args: ['--noEmit', '-p', '.'] },
      {
        label: 'types (astro check)',
        cmd: bin('astro'),
        args: ['check', '--tsconfig', 'tsconfig.site.json'],
        astro: true,
      },
    ]),
  ]),
);

/**
 * The e2e server (tests/e2e/serve.ts: the sample clips the specs play, then the app and its first
 * site build), started beside Vitest at normal priority; Playwright reuses it once it is live.
 */
const e2ePort = 20_000 + Math.floor(Math.random() * 20_000);
const e2eServer = spawn(process.execPath, [path.join(root, 'tests', 'e2e', 'serve.ts')], {
  cwd: root,
  env: { ...process.env, E2E_PORT: String(e2ePort) },
  stdio: ['ignore', 'ignore', 'pipe'],
});
const e2eServerLog: Buffer[] = [];
e2eServer.stderr?.on('data', (chunk: Buffer) => e2eServerLog.push(chunk));
const e2eServerExited = new Promise<void>((resolve) => e2eServer.once('close', () => resolve()));
const e2eServerRunning = () => e2eServer.exitCode === null && e2eServer.signalCode === null;
// Whatever ends this run, the server goes with it.
process.once('exit', () => {
  if (e2eServerRunning()) e2eServer.kill('SIGKILL');
});
/**
 * Resolves true once the whole site answers (what playwright.config.ts waits for), false if the
 * server ends first. No deadline while Vitest runs: on a fresh clone, a loaded machine, the
 * clips and the first build may take longer than Vitest leaves them room for.
 */
const e2eServerLive = timed('e2e server start (beside vitest)', async () => {
  const url = `http://127.0.0.1:${e2ePort}${E2E_READY_PATH}`;
  while (e2eServerRunning()) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
});

// Vitest
const vitestJson = path.join(out, 'vitest.json');
rmSync(vitestJson, { force: true });
const vitestOk = await timed('vitest', () =>
  run('unit + api tests', bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
  ]),
);
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

// Playwright, on the e2e server started beside Vitest; if it did not come up, Playwright starts
// its own (playwright.config.ts).
// As long as Playwright would wait for a server of its own.
const reuse = await Promise.race([
  e2eServerLive,
  new Promise<false>((resolve) => setTimeout(() => resolve(false), 240_000).unref()),
]);
if (!reuse) {
  console.log('\n▶ the e2e server started beside Vitest is not live; Playwright starts its own');
  process.stderr.write(Buffer.concat(e2eServerLog));
  if (e2eServerRunning()) e2eServer.kill('SIGTERM');
  await e2eServerExited;
} else {
  // From here on its warnings show as they come, as Playwright shows its own server's.
  e2eServer.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[e2e server] ${chunk}`));
  process.stderr.write(Buffer.concat(e2eServerLog));
}
const pwJson = path.join(out, 'playwright.json');
rmSync(pwJson, { force: true });
const pwOk = await timed('playwright', () =>
  run('e2e tests', bin('playwright'), ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
    E2E_PORT: String(e2ePort),
    ...(reuse ? { E2E_SERVER_STARTED: String(e2ePort) } : {}),
  }),
);
if (e2eServerRunning()) {
  e2eServer.kill('SIGTERM');
  const killLater = setTimeout(() => e2eServer.kill('SIGKILL'), 15_000);
  await e2eServerExited;
  clearTimeout(killLater);
}
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
// test. `npm test` runs the three that guard money and the queue against real processes: a crash
// under load (the load scenario's users, with the server killed and restarted: no 5xx while up,
// the ledger sums, every failed video refunded once, no task lost), parallel subscription
// payments on two APIs (one subscription each), and 50 API clients retrying with idempotency
// keys (issue 36: every accepted video charged once, every failure refunded once). The others
// (the plain load, slow connections, large bodies, two instances, several machines) run in
// `npm run test:resilience` and the bench; on a two-core machine they took three of CI's twenty
// minutes. RESILIENCE_ONLY picks others.
const RESILIENCE_IN_NPM_TEST = 'crash,pays,api';
const resilienceJson = path.join(out, 'resilience.json');
rmSync(resilienceJson, { force: true });
const resilienceOk = await timed('resilience', () =>
  run('resilience (short)', process.execPath, [path.join(root, 'tests', 'resilience', 'run.ts')], {
    RESILIENCE_PROFILE: 'short',
    RESILIENCE_REPORT: resilienceJson,
    RESILIENCE_ONLY: process.env.RESILIENCE_ONLY || RESILIENCE_IN_NPM_TEST,
  }),
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

// The checks have long finished (or finish now, with the machine to themselves).
await checks;
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
