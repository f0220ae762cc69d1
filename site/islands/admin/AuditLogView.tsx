/**
 * Audit log: every change made through the admin API or CLI (the admin_actions table), newest
 * first, with who made it, on whom, and the details recorded with it (amount, reason…).
 */
import { useCallback, useState } from 'react';
import type { AdminAction } from '../../../server/contracts/admin.ts';
import { listAdminActions } from '../../lib/admin-api.ts';
import { humanize } from './Badge.tsx';
import { formatDateTime, formatSigned } from './format.ts';
import { Empty, Loading, LoadError } from './ListStates.tsx';
import Pager, { rangeText } from './Pager.tsx';
import { userHref } from './route.ts';
import TableScroll from './TableScroll.tsx';
import { useAdminData } from './use-admin-data.ts';

const PAGE_SIZE = 20;

/** The audit names the admin service writes (server/domains/admin/service.ts), in words. */
const ACTION_LABELS: Record<string, string> = {
  'credits.adjust': 'Adjusted credits',
  'blog_access.grant': 'Granted blog access',
  'blog_access.revoke': 'Revoked blog access',
  'task.refund': 'Refunded a failed task',
};

export function actionLabel(action: string): string {
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

export default function AuditLogView() {
  const [offset, setOffset] = useState(0);
  const load = useCallback(() => listAdminActions({ offset, limit: PAGE_SIZE }), [offset]);
  const { data, loading, error, reload } = useAdminData(load);

  return (
    <section className="admin-view" aria-labelledby="admin-view-title">
      <div className="admin-view__head">
        <h2 id="admin-view-title" tabIndex={-1}>
          Audit log
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
        <Loading what="the audit log" />
      ) : data.actions.length === 0 ? (
        <Empty title="No admin actions yet.">
          Credit adjustments, blog access changes and refunds are recorded here with the admin who
          made them.
        </Empty>
      ) : (
        <>
          <TableScroll captionId="admin-audit-caption" busy={loading}>
            <table className="admin-table" role="table">
              <caption id="admin-audit-caption">
                Admin actions, newest first: {rangeText(offset, data.actions.length, data.total)}
              </caption>
              <thead role="rowgroup">
                <tr role="row">
                  <th scope="col" role="columnheader">
                    When
                  </th>
                  <th scope="col" role="columnheader">
                    Admin
                  </th>
                  <th scope="col" role="columnheader">
                    Action
                  </th>
                  <th scope="col" role="columnheader">
                    User
                  </th>
                  <th scope="col" role="columnheader">
                    Details
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {data.actions.map((action) => (
                  <tr role="row" key={action.id} data-testid="admin-audit-row">
                    <td role="cell" data-label="When" className="is-nowrap">
                      <time dateTime={action.created_at}>{formatDateTime(action.created_at)}</time>
                    </td>
                    <td role="cell" data-label="Admin" className="is-nowrap">
                      {action.admin}
                    </td>
                    <td role="cell" data-label="Action" className="is-nowrap">
                      {actionLabel(action.action)}
                    </td>
                    <td role="cell" data-label="User">
                      {action.target_user_id ? (
                        // The audit row keeps the user's id, not their email: link to their panel.
                        <a href={userHref(action.target_user_id)} title={action.target_user_id}>
                          View user <code>{action.target_user_id.slice(0, 8)}</code>
                        </a>
                      ) : (
                        <span className="admin-muted">—</span>
                      )}
                    </td>
                    <td role="cell" data-label="Details" className="is-wide">
                      <Details details={action.details} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager
            label="Audit log"
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
