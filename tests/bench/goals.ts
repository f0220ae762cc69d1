/**
 * The throughput goals of the bench's `api` section, in one table: the code that prints the goal
 * column reads them from here (tests/bench/run.ts), so a goal is changed in one place.
 *
 * A goal is a share of one of two references, both measured next to the row on the same machine:
 * - `ceiling`: a bare Fastify hello-world (what the framework and the machine allow at all);
 * - `replay`: the same answer, bytes and headers, replayed by that bare server (what is left once
 *   the answer's own size is out: a 77 KB page cannot reach the hello-world's rate).
 */
export type GoalReference = 'ceiling' | 'replay';

export interface ThroughputGoal {
  /** The row's target, as run.ts names it. */
  target: string;
  against: GoalReference;
  atLeast: number;
}

/**
 * Issue 33, item 2 (the static pages' goals hold for the plain and the compressed answer), and
 * issue 36's GET of a video.
 */
export const THROUGHPUT_GOALS: readonly ThroughputGoal[] = [
  { target: 'GET /api/health', against: 'ceiling', atLeast: 0.5 },
  { target: 'GET /api/health/live', against: 'ceiling', atLeast: 0.8 },
  { target: 'GET /api/blog/posts?page=1&limit=12', against: 'ceiling', atLeast: 0.5 },
  { target: 'GET /api/blog/posts/{slug}', against: 'ceiling', atLeast: 0.5 },
  { target: 'GET /api/credits/balance (signed in)', against: 'ceiling', atLeast: 0.5 },
  // Issue 36: the public API's read of a video.
  { target: 'GET /v1/videos/{id}', against: 'ceiling', atLeast: 0.5 },
  { target: 'GET / (static)', against: 'replay', atLeast: 0.9 },
  { target: 'GET /blog/{slug} (static)', against: 'replay', atLeast: 0.9 },
  { target: 'GET / (static, as a browser: br)', against: 'replay', atLeast: 0.9 },
  { target: 'GET /blog/{slug} (static, as a browser: br)', against: 'replay', atLeast: 0.9 },
];

/** A measured row: its ratios to both references. */
export interface MeasuredRow {
  target: string;
  ratio: number;
  replayRatio?: number;
}

/**
 * The goal column of a row ("≥ 0.5 × ceiling ✓"), and whether it is met; null for a row without
 * a goal.
 */
export function goalOf(row: MeasuredRow): { text: string; met: boolean } | null {
  const goal = THROUGHPUT_GOALS.find((g) => g.target === row.target);
  if (!goal) return null;
  const value = goal.against === 'ceiling' ? row.ratio : row.replayRatio;
  const met = value !== undefined && value >= goal.atLeast;
  const reference = goal.against === 'ceiling' ? 'ceiling' : 'same answer';
  return { text: `≥ ${goal.atLeast} × ${reference} ${met ? '✓' : '✗'}`, met };
}
