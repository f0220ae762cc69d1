/**
 * The admin overview's daily charts (issue 18): `GET /api/admin/stats/daily?days=`. The figures'
 * definitions are in server/domains/admin/daily-stats.ts; the day counts in shared/admin.ts.
 */
import { Type, type Static } from 'typebox';
import { DAILY_STATS_DEFAULT_DAYS, DAILY_STATS_MAX_DAYS } from '../../shared/admin.ts';
import type * as api from '../../shared/api/admin-stats.ts';
import { Nullable, Ok, schemaFor } from './common.ts';

export const DailyStatsQuery = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      maximum: DAILY_STATS_MAX_DAYS,
      default: DAILY_STATS_DEFAULT_DAYS,
      description: `UTC days to cover, ending today: 1 to ${DAILY_STATS_MAX_DAYS}.`,
    }),
    fresh: Type.Optional(
      Type.Boolean({ description: 'true: read now instead of the answer cached for a minute.' }),
    ),
  },
  { additionalProperties: false },
);
export type DailyStatsQuery = Static<typeof DailyStatsQuery>;

/**
 * One UTC day of the dashboard's charts (definitions in server/domains/admin/daily-stats.ts):
 * credits bought, videos that succeeded, the share of finished tasks that failed, and how long
 * the succeeded ones took from request to playable video.
 */
export const DailyStat = schemaFor<api.DailyStat>()(
  Type.Object({
    /** The UTC day, `YYYY-MM-DD`. */
    day: Type.String(),
    creditsSold: Type.Integer(),
    videosGenerated: Type.Integer(),
    failedTasks: Type.Integer(),
    /** failed ÷ (succeeded + failed), 0…1; null on a day no task finished. */
    failureRate: Nullable(Type.Number()),
    /** Seconds, succeeded tasks only; null on a day none succeeded. */
    latencyP50Seconds: Nullable(Type.Number()),
    latencyP95Seconds: Nullable(Type.Number()),
  }),
);
export type DailyStat = api.DailyStat;

export const DailyStatsResponse = schemaFor<api.DailyStatsResponse>()(
  Ok(
    Type.Object({
      days: Type.Integer(),
      /** First and last UTC day covered (`YYYY-MM-DD`); the last is today. */
      from: Type.String(),
      to: Type.String(),
      /** When the figures were computed (they are cached for a minute). */
      generatedAt: Type.String(),
      /** One entry per day, oldest first, days without activity included. */
      series: Type.Array(DailyStat),
    }),
  ),
);
export type DailyStatsResponse = api.DailyStatsResponse;
