/** Payments: every checkout, newest first, with what it bought and where it stands. */
import type { AdminPayment } from '../../../shared/api/admin.ts';
import { ADMIN_PAGE_SIZE } from '../../../shared/admin.ts';
import { listPayments } from '../../lib/api/admin.ts';
import AdminView, { RefreshButton } from './AdminView.tsx';
import Badge, { humanize, stateTone } from './Badge.tsx';
import { dateColumn, idColumn, userColumn, type Column } from './DataTable.tsx';
import { describePurchase, formatMoney } from './format.ts';
import { Empty } from './ListStates.tsx';
import PagedTable from './PagedTable.tsx';
import { usePagedList } from './use-admin-data.ts';

const COLUMNS: Column<AdminPayment>[] = [
  dateColumn('Date', (payment) => payment.created_at),
  userColumn(),
  {
    header: 'Item',
    className: 'is-nowrap',
    cell: (payment) => describePurchase(payment.kind, payment.item_id),
  },
  {
    header: 'Amount',
    numeric: true,
    cell: (payment) => formatMoney(payment.amount_cents, payment.currency),
  },
  {
    header: 'Status',
    cell: (payment) => <Badge tone={stateTone(payment.status)}>{humanize(payment.status)}</Badge>,
  },
  { header: 'Provider', cell: (payment) => humanize(payment.provider) },
  idColumn('Payment id'),
];

export default function PaymentsView() {
  const list = usePagedList(listPayments, ADMIN_PAGE_SIZE);
  return (
    <AdminView title="Payments" tools={<RefreshButton state={list} />}>
      <PagedTable
        list={list}
        rowsOf={(data) => data.payments}
        what="payments"
        empty={
          <Empty title="No payments yet.">
            Plan and credit pack checkouts appear here as soon as a customer starts one.
          </Empty>
        }
        columns={COLUMNS}
        captionId="admin-payments-caption"
        caption="Payments, newest first"
        pagerLabel="Payments"
      />
    </AdminView>
  );
}
