/**
 * The admin overview's margin view (issue 37, item 5): `GET /api/admin/stats/margin?days=`. The
 * figures' definitions are the server's (server/domains/admin/margin-stats.ts); the schemas are in
 * server/contracts/admin-margin.ts.
 */
import type { Ok } from './common.ts';

/**
 * The videos that finished in a span (completed or failed), what their credits brought in and
 * what the providers billed for them. Amounts in USD, exact to the millionth.
 */
export type MarginFigures = {
  completed: number;
  failed: number;
  /** Credits charged × the customer's price per credit; 0 for a failed (refunded) video. */
  revenueUsd: number;
  /** provider_cost_usd, summed. */
  costUsd: number;
  /** revenueUsd − costUsd. */
  marginUsd: number;
  /** marginUsd ÷ revenueUsd in percent, to a tenth; null when revenue is 0. */
  marginPercent: number | null;
  /** Finished videos with no recorded provider cost (counted as 0 above). */
  withoutCost: number;
  /** Finished videos charged before revenue was recorded (counted as 0 above). */
  withoutRevenue: number;
};

/** One UTC day. */
export type MarginDay = MarginFigures & {
  /** `YYYY-MM-DD`. */
  day: string;
};

/** One provider:model: the provider that made the video and the model it billed. */
export type MarginModel = MarginFigures & {
  provider: string;
  /** null: no provider accepted the job (it failed before one did). */
  model: string | null;
};

export type MarginStatsResponse = Ok<{
  days: number;
  /** First and last UTC day covered (`YYYY-MM-DD`); the last is today. */
  from: string;
  to: string;
  /** When the figures were computed (they are cached for a minute). */
  generatedAt: string;
  /** One entry per day, oldest first, days without videos included. */
  series: MarginDay[];
  /** One entry per provider:model, the highest revenue first. */
  models: MarginModel[];
  totals: MarginFigures;
}>;
