/** A user's credit ledger, newest first and paged: every change with the balance it left. */
import { useCallback } from 'react';
import type { AdminTransaction } from '../../../shared/api/admin.ts';
import { listUserTransactions, type Page } from '../../lib/api/admin.ts';
import { humanize } from './Badge.tsx';
import { dateColumn, type Column } from './DataTable.tsx';
import { formatSigned } from './format.ts';
import { Empty } from './ListStates.tsx';
import PagedTable from './PagedTable.tsx';
import { usePagedList } from './use-admin-data.ts';

const PAGE_SIZE = 10;

const COLUMNS: Column<AdminTransaction>[] = [
  dateColumn('Date', (entry) => entry.created_at),
  {
    header: 'Change',
    numeric: true,
    className: (entry) => (entry.amount < 0 ? 'admin-text-bad' : 'admin-text-good'),
    cell: (entry) => formatSigned(entry.amount),
  },
  {
    header: 'Balance after',
    numeric: true,
    cell: (entry) => entry.balance_after.toLocaleString(),
  },
  { header: 'Source', className: 'is-nowrap', cell: (entry) => humanize(entry.source_type) },
  {
    header: 'Description',
    className: 'admin-table__text',
    cell: (entry) => entry.description || <span className="admin-muted">—</span>,
  },
];

/** The parent remounts it (a new `key`) after a change, to start again at the newest entry. */
export default function Ledger({ userId }: { userId: string }) {
  const fetchPage = useCallback((page: Page) => listUserTransactions(userId, page), [userId]);
  const list = usePagedList(fetchPage, PAGE_SIZE);

  return (
    <div className="admin-panel" aria-labelledby="admin-ledger-title" role="group">
      <h3 id="admin-ledger-title" className="admin-panel__title">
        Credit ledger
      </h3>
      <PagedTable
        list={list}
        rowsOf={(data) => data.transactions}
        what="the ledger"
        empty={
          <Empty title="No credit transactions yet.">
            Purchases, video charges, refunds and adjustments will be listed here.
          </Empty>
        }
        columns={COLUMNS}
        captionId="admin-ledger-caption"
        caption="Ledger entries, newest first"
        rowTestId="admin-ledger-row"
        pagerLabel="Ledger"
      />
    </div>
  );
}
