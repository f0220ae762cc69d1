/**
 * The resilience suite: Load and Crash on the embedded database, Slow connections and Large
 * bodies against an API-only server, then 8 parallel subscription pays and Two instances on
 * PostgreSQL, and Several machines (own disks, one database, one bucket). `runSuite` is what
 * `npm run test:resilience` (run.ts) and the bench call.
 */
import { rm } from 'node:fs/promises';
import { runAbuse } from './abuse.ts';
import { runApiClients } from './api-clients.ts';
import { makeDataDir } from './processes.ts';
import type { Profile } from './profiles.ts';
import { formatResult, resultWithoutTraffic, type ScenarioResult } from './report.ts';
import { createSite, runCrash, runLoad } from './single.ts';
import { runSubscriptionPays } from './subscription-pays.ts';
import { runSeveralMachines } from './several-machines.ts';
import { runTwoInstances } from './two-instances.ts';

export type ScenarioName =
  'load' | 'crash' | 'two' | 'slow' | 'bodies' | 'pays' | 'machines' | 'api';
export const SCENARIOS: ScenarioName[] = [
  'load',
  'crash',
  'two',
  'slow',
  'bodies',
  'pays',
  'machines',
  'api',
];

export interface SuiteResult {
  profile: Profile['name'];
  scenarios: ScenarioResult[];
  passed: number;
  failed: number;
}

export async function runSuite(
  profile: Profile,
  only: ScenarioName[] = SCENARIOS,
  print: (text: string) => void = console.log,
): Promise<SuiteResult> {
  const scenarios: ScenarioResult[] = [];
  const record = (result: ScenarioResult) => {
    scenarios.push(result);
    print(formatResult(result));
  };
  const failedToRun = (name: string, database: ScenarioResult['database'], error: unknown) =>
    record(
      resultWithoutTraffic(name, database, {
        checks: [
          {
            name: 'scenario ran to the end',
            ok: false,
            detail: String((error as Error).stack ?? error),
          },
        ],
      }),
    );

  if (only.includes('load') || only.includes('crash')) {
    // Crash continues on Load's data directory: one first build instead of two.
    const dataDir = await makeDataDir('resilience-');
    const site = await createSite(dataDir);
    let keep = false;
    try {
      for (const [name, run] of [
        ['load', runLoad],
        ['crash', runCrash],
      ] as const) {
        if (!only.includes(name)) continue;
        try {
          const result = await run(site, profile);
          keep ||= result.checks.some((c) => !c.ok);
          record(result);
        } catch (error) {
          keep = true;
          failedToRun(name === 'load' ? 'Load' : 'Crash', 'pglite', error);
        }
      }
    } finally {
      if (site.proc) site.proc.child.kill('SIGKILL');
      if (keep || process.env.RESILIENCE_KEEP)
        print(`  data directory kept for a look: ${dataDir}`);
      else await rm(dataDir, { recursive: true, force: true });
    }
  }
  // Slow connections and large bodies (issue 16, findings 5 and 6) share one API-only server.
  const abuse = only.filter((name) => name === 'slow' || name === 'bodies');
  if (abuse.length > 0) await runAbuse(profile, abuse, record);
  // 8 parallel subscription pays on two APIs and PostgreSQL (issue 16, finding 2).
  if (only.includes('pays')) {
    try {
      record(await runSubscriptionPays(profile));
    } catch (error) {
      failedToRun('8 parallel subscription pays', 'postgres', error);
    }
  }
  if (only.includes('two')) {
    try {
      record(await runTwoInstances(profile));
    } catch (error) {
      failedToRun('Two instances', 'postgres', error);
    }
  }
  // Separate disks, one database and one bucket (issue 18).
  if (only.includes('machines')) {
    try {
      record(await runSeveralMachines());
    } catch (error) {
      failedToRun('Several machines', 'postgres', error);
    }
  }

  // 50 API clients retrying with idempotency keys (issue 36).
  if (only.includes('api')) {
    try {
      record(await runApiClients(profile));
    } catch (error) {
      failedToRun('API clients', 'pglite', error);
    }
  }

  const checks = scenarios.flatMap((s) => s.checks);
  return {
    profile: profile.name,
    scenarios,
    passed: checks.filter((c) => c.ok).length,
    failed: checks.filter((c) => !c.ok).length,
  };
}
