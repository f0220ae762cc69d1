/**
 * Audit log: every change made through the admin API or CLI (the admin_actions table), newest
 * first, with who made it, on whom, and the details recorded with it (amount, reason…).
 */
import type { AdminAction } from '../../../shared/api/admin.ts';
import { ADMIN_PAGE_SIZE } from '../../../shared/admin.ts';
import { listAdminActions } from '../../lib/api/admin.ts';
import AdminView, { RefreshButton } from './AdminView.tsx';
import { humanize } from './Badge.tsx';
import { dateColumn, type Column } from './DataTable.tsx';
import { formatSigned } from './format.ts';
import { Empty } from './ListStates.tsx';
import PagedTable from './PagedTable.tsx';
import { userHref } from './route.ts';
import { usePagedList } from './use-admin-data.ts';

/** The audit names the admin service writes (server/domains/admin/service.ts), in words. */
const ACTION_LABELS: Record<string, string> = {
  'credits.adjust': 'Adjusted credits',
  'blog_access.grant': 'Granted blog access',
  'blog_access.revoke': 'Revoked blog access',
  'task.refund': 'Refunded a failed task',
};

function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? humanize(action);
}

/** A detail value as text: amounts signed, numbers grouped, yes/no, JSON for anything nested. */
function detailText(key: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number')
    return key === 'amount' ? formatSigned(value) : value.toLocaleString();
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Words for the detail keys the admin service records; others are spelled out from the key. */
const DETAIL_LABELS: Record<string, string> = {
  can_manage_blog: 'Blog access now',
  previous: 'Blog access before',
  balance_after: 'Balance after',
};

/** "balanceAfter" / "balance_after" → "Balance after". */
function detailLabel(key: string): string {
  return DETAIL_LABELS[key] ?? humanize(key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
}

function Details({ details }: { details: AdminAction['details'] }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return <span className="admin-muted">—</span>;
  return (
    <dl className="admin-details">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{detailLabel(key)}</dt>
          <dd>{detailText(key, value)}</dd>
        </div>
      ))}
    </dl>
  );
}

const COLUMNS: Column<AdminAction>[] = [
  dateColumn('When', (action) => action.created_at),
  { header: 'Admin', className: 'is-nowrap', cell: (action) => action.admin },
  { header: 'Action', className: 'is-nowrap', cell: (action) => actionLabel(action.action) },
  {
    header: 'User',
    cell: (action) =>
      action.target_user_id ? (
        // The audit row keeps the user's id, not their email: link to their panel.
        <a href={userHref(action.target_user_id)} title={action.target_user_id}>
          View user <code>{action.target_user_id.slice(0, 8)}</code>
        </a>
      ) : (
        <span className="admin-muted">—</span>
      ),
  },
  {
    header: 'Details',
    className: 'is-wide',
    cell: (action) => <Details details={action.details} />,
  },
];

export default function AuditLogView() {
  const list = usePagedList(listAdminActions, ADMIN_PAGE_SIZE);
  return (
    <AdminView title="Audit log" tools={<RefreshButton state={list} />}>
      <PagedTable
        list={list}
        rowsOf={(data) => data.actions}
        what="the audit log"
        empty={
          <Empty title="No admin actions yet.">
            Credit adjustments, blog access changes and refunds are recorded here with the admin who
            made them.
          </Empty>
        }
        columns={COLUMNS}
        captionId="admin-audit-caption"
        caption="Admin actions, newest first"
        rowTestId="admin-audit-row"
        pagerLabel="Audit log"
      />
    </AdminView>
  );
}
