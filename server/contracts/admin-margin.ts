/**
 * The admin overview's margin view (issue 37, item 5): `GET /api/admin/stats/margin?days=`. The
 * figures' definitions are in server/domains/admin/margin-stats.ts; the plain types in
 * shared/api/admin-margin.ts.
 */
import { Type } from 'typebox';
import type * as api from '../../shared/api/admin-margin.ts';
import { Nullable, Ok, schemaFor } from './common.ts';

/** The same query as the daily charts': `days` (1…90, default 30) and `fresh`. */
export { DailyStatsQuery as MarginStatsQuery } from './admin-stats.ts';

const figures = {
  completed: Type.Integer(),
  failed: Type.Integer(),
  revenueUsd: Type.Number(),
  costUsd: Type.Number(),
  marginUsd: Type.Number(),
  marginPercent: Nullable(Type.Number()),
  withoutCost: Type.Integer(),
  withoutRevenue: Type.Integer(),
};

export const MarginStatsResponse = schemaFor<api.MarginStatsResponse>()(
  Ok(
    Type.Object({
      days: Type.Integer(),
      from: Type.String(),
      to: Type.String(),
      generatedAt: Type.String(),
      series: Type.Array(Type.Object({ day: Type.String(), ...figures })),
      models: Type.Array(
        Type.Object({ provider: Type.String(), model: Nullable(Type.String()), ...figures }),
      ),
      totals: Type.Object(figures),
    }),
  ),
);
export type MarginStatsResponse = api.MarginStatsResponse;
