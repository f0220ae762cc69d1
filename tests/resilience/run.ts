/**
 * `npm run test:resilience`: the resilience suite against real processes. RESILIENCE_PROFILE
 * (short | long, default long) sets how hard; RESILIENCE_ONLY=load,crash,two,slow,bodies,pays,machines,api picks scenarios;
 * RESILIENCE_REPORT=<file> writes the results as JSON (scripts/test.ts counts them from there).
 * Exits non-zero on any violation.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { profileFromEnv } from './profiles.ts';
import { runSuite, SCENARIOS, type ScenarioName } from './suite.ts';

const profile = profileFromEnv();
const only = (process.env.RESILIENCE_ONLY?.split(',').filter(Boolean) ??
  SCENARIOS) as ScenarioName[];
for (const name of only) {
  if (!SCENARIOS.includes(name)) {
    console.error(`RESILIENCE_ONLY: unknown scenario '${name}' (use ${SCENARIOS.join(', ')}).`);
    process.exit(2);
  }
}

console.log(
  `resilience (${profile.name}): ${profile.users} users for ${profile.durationMs / 1000} s, ` +
    `${profile.crashes} kill(s), two instances with ${profile.twoInstances.users} users`,
);
const started = Date.now();
const result = await runSuite(profile, only);
const skipped = result.scenarios.filter((s) => s.skipped).map((s) => s.name);
console.log(
  `\n${result.passed} checks passed, ${result.failed} failed` +
    (skipped.length ? `, skipped: ${skipped.join(', ')}` : '') +
    ` (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
if (process.env.RESILIENCE_REPORT) {
  mkdirSync(path.dirname(path.resolve(process.env.RESILIENCE_REPORT)), { recursive: true });
  writeFileSync(process.env.RESILIENCE_REPORT, JSON.stringify(result, null, 2));
}
// Child processes and keep-alive sockets must not hold the exit.
process.exit(result.failed > 0 ? 1 : 0);
