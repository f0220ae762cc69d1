/** One promotion code's uses (issue 37): who, which checkout, the discount, and where each stands. */
import { useCallback } from 'react';
import type { AdminPromotionRedemption } from '../../../shared/promotions.ts';
import { listPromotionRedemptions } from '../../lib/api/admin-promotions.ts';
import Badge from './Badge.tsx';
import DataTable, { dateColumn, type Column } from './DataTable.tsx';
import { Empty, Loaded } from './ListStates.tsx';
import { useAdminData } from './use-admin-data.ts';

const STATUS = {
  reserved: <Badge tone="neutral">Reserved (checkout open)</Badge>,
  redeemed: <Badge tone="good">Redeemed</Badge>,
  released: <Badge tone="neutral">Released (not paid)</Badge>,
} as const;

const columns: Column<AdminPromotionRedemption>[] = [
  {
    header: 'Customer',
    className: 'is-wide',
    cell: (r) => (
      <>
        {r.email ?? r.user_id}
        <span className="admin-table__sub">
          <code className="admin-id">{r.checkout_id}</code>
        </span>
      </>
    ),
  },
  { header: 'Discount', className: 'is-nowrap', cell: (r) => `$${r.discount.toFixed(2)}` },
  { header: 'State', cell: (r) => STATUS[r.status] },
  dateColumn('When', (r) => r.redeemed_at ?? r.created_at),
];

export default function PromotionRedemptions({ code }: { code: string }) {
  const load = useCallback(() => listPromotionRedemptions(code).then((body) => body.data), [code]);
  const state = useAdminData(load);
  return (
    <section className="admin-panel" aria-label={`Uses of ${code}`} data-testid="admin-promo-uses">
      <h4 className="admin-panel__title">Uses of {code}</h4>
      <Loaded state={state} what="the uses">
        {(data) =>
          data.redemptions.length === 0 ? (
            <Empty title="Not used yet.">No checkout has used this code.</Empty>
          ) : (
            <DataTable
              columns={columns}
              rows={data.redemptions}
              captionId="admin-promotion-uses-caption"
              caption={`Uses of ${code}, newest first`}
              busy={state.loading}
            />
          )
        }
      </Loaded>
    </section>
  );
}
