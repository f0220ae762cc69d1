/** A user's credit ledger, newest first and paged: every change with the balance it left. */
import { useCallback, useState } from 'react';
import { listUserTransactions } from '../../lib/admin-api.ts';
import { humanize } from './Badge.tsx';
import { formatDateTime, formatSigned } from './format.ts';
import { Empty, Loading, LoadError } from './ListStates.tsx';
import Pager, { rangeText } from './Pager.tsx';
import TableScroll from './TableScroll.tsx';
import { useAdminData } from './use-admin-data.ts';

const PAGE_SIZE = 10;

/** The parent remounts it (a new `key`) after a change, to start again at the newest entry. */
export default function Ledger({ userId }: { userId: string }) {
  const [offset, setOffset] = useState(0);
  const load = useCallback(
    () => listUserTransactions(userId, { offset, limit: PAGE_SIZE }),
    [userId, offset],
  );
  const { data, loading, error, reload } = useAdminData(load);

  return (
    <div className="admin-panel" aria-labelledby="admin-ledger-title" role="group">
      <h3 id="admin-ledger-title" className="admin-panel__title">
        Credit ledger
      </h3>
      {error ? (
        <LoadError message={error} onRetry={reload} />
      ) : !data ? (
        <Loading what="the ledger" />
      ) : data.transactions.length === 0 ? (
        <Empty title="No credit transactions yet.">
          Purchases, video charges, refunds and adjustments will be listed here.
        </Empty>
      ) : (
        <>
          <TableScroll captionId="admin-ledger-caption" busy={loading}>
            <table className="admin-table" role="table">
              <caption id="admin-ledger-caption">
                Ledger entries, newest first:{' '}
                {rangeText(offset, data.transactions.length, data.total)}
              </caption>
              <thead role="rowgroup">
                <tr role="row">
                  <th scope="col" role="columnheader">
                    Date
                  </th>
                  <th scope="col" role="columnheader" className="is-numeric">
                    Change
                  </th>
                  <th scope="col" role="columnheader" className="is-numeric">
                    Balance after
                  </th>
                  <th scope="col" role="columnheader">
                    Source
                  </th>
                  <th scope="col" role="columnheader">
                    Description
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {data.transactions.map((entry) => (
                  <tr role="row" key={entry.id} data-testid="admin-ledger-row">
                    <td role="cell" data-label="Date" className="is-nowrap">
                      <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
                    </td>
                    <td
                      data-label="Change"
                      role="cell"
                      className={`is-numeric ${entry.amount < 0 ? 'admin-text-bad' : 'admin-text-good'}`}
                    >
                      {formatSigned(entry.amount)}
                    </td>
                    <td role="cell" data-label="Balance after" className="is-numeric">
                      {entry.balance_after.toLocaleString()}
                    </td>
                    <td role="cell" data-label="Source" className="is-nowrap">
                      {humanize(entry.source_type)}
                    </td>
                    <td role="cell" data-label="Description" className="admin-table__text">
                      {entry.description || <span className="admin-muted">—</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager
            label="Ledger"
            offset={offset}
            limit={PAGE_SIZE}
            total={data.total}
            busy={loading}
            onChange={setOffset}
          />
        </>
      )}
    </div>
  );
}
