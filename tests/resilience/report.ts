/** Scenario results: the checks the users' answers must pass, and the printed summary. */
import { check, type Check } from './invariants.ts';
import type { Stats } from './driver.ts';

export interface ScenarioResult {
  name: string;
  database: 'pglite' | 'postgres';
  /** Why it did not run (e.g. no PostgreSQL); a skipped scenario has no checks. */
  skipped?: string;
  seconds: number;
  requests: number;
  byStatus: Record<string, number>;
  fiveXx: number;
  networkErrors: { total: number; unexplained: number };
  tasks: Record<string, number>;
  /** Other figures worth printing (startup, downtime after each kill, builds…). */
  notes: string[];
  checks: Check[];
}

/** The result of a scenario that sent no traffic: it was skipped, or it failed before its checks. */
export function resultWithoutTraffic(
  name: string,
  database: ScenarioResult['database'],
  outcome: { skipped: string } | { checks: Check[] },
): ScenarioResult {
  return {
    name,
    database,
    ...('skipped' in outcome ? { skipped: outcome.skipped } : {}),
    seconds: 0,
    requests: 0,
    byStatus: {},
    fiveXx: 0,
    networkErrors: { total: 0, unexplained: 0 },
    tasks: {},
    notes: [],
    checks: 'checks' in outcome ? outcome.checks : [],
  };
}

/** Zero 5xx, only answers the routes should give, and no failed request while the server was up. */
export function answerChecks(stats: Stats): Check[] {
  return [
    check(
      'zero 5xx',
      stats.serverErrors.map((e) => `${e.label} → ${e.status}: ${e.detail}`),
      `${stats.requests} requests`,
    ),
    check(
      'only expected answers',
      stats.unexpected.map((e) => `${e.label} → ${e.status}: ${e.detail}`),
      'every answer as the route promises',
    ),
    check(
      'no failed request while the server was up',
      stats.unexplainedNetworkErrors().map((e) => `${e.label}: ${e.detail}`),
      `${stats.networkErrors.length} failed during planned outages`,
    ),
  ];
}

export function statsFields(stats: Stats) {
  return {
    requests: stats.requests,
    byStatus: Object.fromEntries([...stats.byStatus].sort(([a], [b]) => a - b)),
    fiveXx: stats.count5xx(),
    networkErrors: {
      total: stats.networkErrors.length,
      unexplained: stats.unexplainedNetworkErrors().length,
    },
  };
}

export function formatResult(r: ScenarioResult): string {
  const title = `── ${r.name} (${r.database}) `;
  const lines = [`${title}${'─'.repeat(Math.max(4, 78 - title.length))}`];
  if (r.skipped) return [...lines, `  skipped: ${r.skipped}`].join('\n');
  const statuses = Object.entries(r.byStatus)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  lines.push(
    `  ${r.requests} requests in ${r.seconds.toFixed(0)} s (${statuses}); 5xx: ${r.fiveXx}; ` +
      `no answer: ${r.networkErrors.total} (${r.networkErrors.unexplained} while up)`,
    `  tasks: ${Object.entries(r.tasks)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
    ...r.notes.map((n) => `  ${n}`),
    ...r.checks.map((c) => `  ${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`),
  );
  return lines.join('\n');
}
