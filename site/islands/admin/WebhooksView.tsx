/**
 * Webhook events: what the payment provider sent and whether it was processed. Payloads are never
 * shown (they carry customer details); the event id is enough to look one up at the provider.
 */
import type { AdminWebhookEvent } from '../../../shared/api/admin.ts';
import { ADMIN_PAGE_SIZE } from '../../../shared/admin.ts';
import { listWebhookEvents } from '../../lib/api/admin.ts';
import AdminView, { RefreshButton } from './AdminView.tsx';
import Badge from './Badge.tsx';
import { dateColumn, idColumn, type Column } from './DataTable.tsx';
import { Empty } from './ListStates.tsx';
import PagedTable from './PagedTable.tsx';
import { usePagedList } from './use-admin-data.ts';

const COLUMNS: Column<AdminWebhookEvent>[] = [
  dateColumn('Received', (event) => event.received_at),
  { header: 'Type', className: 'is-wide', cell: (event) => <code>{event.type}</code> },
  {
    header: 'Processed',
    cell: (event) => (
      <Badge tone={event.processed ? 'good' : 'warn'}>
        {event.processed ? 'Processed' : 'Not processed'}
      </Badge>
    ),
  },
  idColumn('Event id'),
];

export default function WebhooksView() {
  const list = usePagedList(listWebhookEvents, ADMIN_PAGE_SIZE);
  return (
    <AdminView title="Webhook events" tools={<RefreshButton state={list} />}>
      <PagedTable
        list={list}
        rowsOf={(data) => data.events}
        what="webhook events"
        empty={
          <Empty title="No webhook events received yet.">
            Events from the payment provider (completed checkouts, paid invoices, cancelled
            subscriptions) are listed here as they arrive.
          </Empty>
        }
        columns={COLUMNS}
        captionId="admin-webhooks-caption"
        caption="Webhook events, newest first"
        pagerLabel="Webhook events"
      />
    </AdminView>
  );
}
