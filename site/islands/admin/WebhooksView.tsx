/**
 * Webhook events: what the payment provider sent and whether it was processed. Payloads are never
 * shown (they carry customer details); the event id is enough to look one up at the provider.
 */
import { useCallback, useState } from 'react';
import { listWebhookEvents } from '../../lib/admin-api.ts';
import Badge from './Badge.tsx';
import { formatDateTime } from './format.ts';
import { Empty, Loading, LoadError } from './ListStates.tsx';
import Pager, { rangeText } from './Pager.tsx';
import TableScroll from './TableScroll.tsx';
import { useAdminData } from './use-admin-data.ts';

const PAGE_SIZE = 20;

export default function WebhooksView() {
  const [offset, setOffset] = useState(0);
  const load = useCallback(() => listWebhookEvents({ offset, limit: PAGE_SIZE }), [offset]);
  const { data, loading, error, reload } = useAdminData(load);

  return (
    <section className="admin-view" aria-labelledby="admin-view-title">
      <div className="admin-view__head">
        <h2 id="admin-view-title" tabIndex={-1}>
          Webhook events
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
        <Loading what="webhook events" />
      ) : data.events.length === 0 ? (
        <Empty title="No webhook events received yet.">
          Events from the payment provider (completed checkouts, paid invoices, cancelled
          subscriptions) are listed here as they arrive.
        </Empty>
      ) : (
        <>
          <TableScroll captionId="admin-webhooks-caption" busy={loading}>
            <table className="admin-table" role="table">
              <caption id="admin-webhooks-caption">
                Webhook events, newest first: {rangeText(offset, data.events.length, data.total)}
              </caption>
              <thead role="rowgroup">
                <tr role="row">
                  <th scope="col" role="columnheader">
                    Received
                  </th>
                  <th scope="col" role="columnheader">
                    Type
                  </th>
                  <th scope="col" role="columnheader">
                    Processed
                  </th>
                  <th scope="col" role="columnheader">
                    Event id
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {data.events.map((event) => (
                  <tr role="row" key={event.id}>
                    <td role="cell" data-label="Received" className="is-nowrap">
                      <time dateTime={event.received_at}>{formatDateTime(event.received_at)}</time>
                    </td>
                    <td role="cell" data-label="Type" className="is-wide">
                      <code>{event.type}</code>
                    </td>
                    <td role="cell" data-label="Processed">
                      <Badge tone={event.processed ? 'good' : 'warn'}>
                        {event.processed ? 'Processed' : 'Not processed'}
                      </Badge>
                    </td>
                    <td role="cell" data-label="Event id" className="is-wide">
                      <code className="admin-id">{event.id}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager
            label="Webhook events"
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
