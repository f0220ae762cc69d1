/** Payments: every checkout, newest first, with what it bought and where it stands. */
import { useCallback, useState } from 'react';
import { listPayments } from '../../lib/admin-api.ts';
import Badge, { humanize, stateTone } from './Badge.tsx';
import { describePurchase, formatDateTime, formatMoney } from './format.ts';
import { Empty, Loading, LoadError } from './ListStates.tsx';
import Pager, { rangeText } from './Pager.tsx';
import { userHref } from './route.ts';
import TableScroll from './TableScroll.tsx';
import { useAdminData } from './use-admin-data.ts';

const PAGE_SIZE = 20;

export default function PaymentsView() {
  const [offset, setOffset] = useState(0);
  const load = useCallback(() => listPayments({ offset, limit: PAGE_SIZE }), [offset]);
  const { data, loading, error, reload } = useAdminData(load);

  return (
    <section className="admin-view" aria-labelledby="admin-view-title">
      <div className="admin-view__head">
        <h2 id="admin-view-title" tabIndex={-1}>
          Payments
        </h2>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={reload}
          disabled={loading}
        >
          Refresh
        </button>
      </div>

      {error ? (
        <LoadError message={error} onRetry={reload} />
      ) : !data ? (
        <Loading what="payments" />
      ) : data.payments.length === 0 ? (
        <Empty title="No payments yet.">
          Plan and credit pack checkouts appear here as soon as a customer starts one.
        </Empty>
      ) : (
        <>
          <TableScroll captionId="admin-payments-caption" busy={loading}>
            <table className="admin-table" role="table">
              <caption id="admin-payments-caption">
                Payments, newest first: {rangeText(offset, data.payments.length, data.total)}
              </caption>
              <thead role="rowgroup">
                <tr role="row">
                  <th scope="col" role="columnheader">
                    Date
                  </th>
                  <th scope="col" role="columnheader">
                    User
                  </th>
                  <th scope="col" role="columnheader">
                    Item
                  </th>
                  <th scope="col" role="columnheader" className="is-numeric">
                    Amount
                  </th>
                  <th scope="col" role="columnheader">
                    Status
                  </th>
                  <th scope="col" role="columnheader">
                    Provider
                  </th>
                  <th scope="col" role="columnheader">
                    Payment id
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {data.payments.map((payment) => (
                  <tr role="row" key={payment.id}>
                    <td role="cell" data-label="Date" className="is-nowrap">
                      <time dateTime={payment.created_at}>
                        {formatDateTime(payment.created_at)}
                      </time>
                    </td>
                    <td role="cell" data-label="User" className="is-wide">
                      <a href={userHref(payment.user_id)}>{payment.user_email}</a>
                    </td>
                    <td role="cell" data-label="Item" className="is-nowrap">
                      {describePurchase(payment.kind, payment.item_id)}
                    </td>
                    <td role="cell" data-label="Amount" className="is-numeric">
                      {formatMoney(payment.amount_cents, payment.currency)}
                    </td>
                    <td role="cell" data-label="Status">
                      <Badge tone={stateTone(payment.status)}>{humanize(payment.status)}</Badge>
                    </td>
                    <td role="cell" data-label="Provider">
                      {humanize(payment.provider)}
                    </td>
                    <td role="cell" data-label="Payment id" className="is-wide">
                      <code className="admin-id">{payment.id}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager
            label="Payments"
            offset={offset}
            limit={PAGE_SIZE}
            total={data.total}
            busy={loading}
            onChange={setOffset}
          />
        </>
      )}
    </section>
  );
}
