/**
 * The admin overview's daily charts (issue 18): `GET /api/admin/stats/daily?days=`. The figures'
 * definitions are the server's (server/domains/admin/daily-stats.ts); the day counts are in
 * shared/admin.ts and the schemas in server/contracts/admin-stats.ts.
 */
import type { Ok } from './common.ts';

/**
 * One UTC day of the dashboard's charts: credits bought, videos that succeeded, the share of
 * finished tasks that failed, and how long the succeeded ones took from request to playable video.
 */
export type DailyStat = {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  creditsSold: number;
  videosGenerated: number;
  failedTasks: number;
  /** failed ÷ (succeeded + failed), 0…1; null on a day no task finished. */
  failureRate: number | null;
  /** Seconds, succeeded tasks only; null on a day none succeeded. */
  latencyP50Seconds: number | null;
  latencyP95Seconds: number | null;
};

export type DailyStatsResponse = Ok<{
  days: number;
  /** First and last UTC day covered (`YYYY-MM-DD`); the last is today. */
  from: string;
  to: string;
  /** When the figures were computed (they are cached for a minute). */
  generatedAt: string;
  /** One entry per day, oldest first, days without activity included. */
  series: DailyStat[];
}>;
