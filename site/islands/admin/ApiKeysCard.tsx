/**
 * A user's API keys on their admin panel (issue 36): name, prefix, scopes, when each was created
 * and last used, and whether it was revoked. Revoke stops a key at once (a leaked key, abuse),
 * after the same confirmation as every admin change; the audit log records it.
 */
import { useCallback } from 'react';
import type { ApiKeyInfo } from '../../../shared/public-api.ts';
import { listUserApiKeys, revokeUserApiKey } from '../../lib/api/admin.ts';
import { useConfirmAction } from './ActionDialog.tsx';
import Badge from './Badge.tsx';
import DataTable, { dateColumn, type Column } from './DataTable.tsx';
import { formatDateAndTime } from './format.ts';
import { Empty, Loaded } from './ListStates.tsx';
import { useAdminData } from './use-admin-data.ts';

/** A moment as the dashboard writes it: the day, with the time beneath. */
function When({ iso }: { iso: string }) {
  const { date, time } = formatDateAndTime(iso);
  return (
    <time dateTime={iso}>
      {date}
      <span className="admin-table__sub">{time}</span>
    </time>
  );
}

export default function ApiKeysCard({ userId, email }: { userId: string; email: string }) {
  const load = useCallback(() => listUserApiKeys(userId), [userId]);
  const state = useAdminData(load);
  const confirmAction = useConfirmAction();

  const askRevoke = (apiKey: ApiKeyInfo) =>
    confirmAction({
      question: `Revoke the API key “${apiKey.name}” of ${email}?`,
      details: (
        <p>
          Every request made with {apiKey.prefix}… is refused from now on, and the user cannot turn
          the key back on: they create a new one. The audit log records that you revoked it.
        </p>
      ),
      confirmLabel: 'Revoke key',
      tone: 'danger',
      run: async () => {
        await revokeUserApiKey(apiKey.id);
        return `The key “${apiKey.name}” (${apiKey.prefix}…) was revoked.`;
      },
      onDone: state.reload,
    });

  const columns: Column<ApiKeyInfo>[] = [
    {
      header: 'Name',
      className: 'is-wide',
      cell: (apiKey) => (
        <>
          {apiKey.name}
          <span className="admin-table__sub">
            <code className="admin-id">{apiKey.prefix}…</code>
          </span>
        </>
      ),
    },
    { header: 'Scopes', cell: (apiKey) => apiKey.scopes.join(', ') },
    dateColumn('Created', (apiKey) => apiKey.created_at),
    {
      header: 'Last used',
      className: 'is-nowrap',
      cell: (apiKey) =>
        apiKey.last_used_at ? (
          <When iso={apiKey.last_used_at} />
        ) : (
          <span className="admin-muted">Never</span>
        ),
    },
    {
      header: 'State',
      cell: (apiKey) =>
        apiKey.revoked_at ? (
          <Badge tone="neutral">Revoked {formatDateAndTime(apiKey.revoked_at).date}</Badge>
        ) : (
          <Badge tone="good">Active</Badge>
        ),
    },
    {
      header: 'Actions',
      headerHidden: true,
      className: 'is-actions',
      cell: (apiKey) =>
        apiKey.revoked_at === null && (
          <button
            type="button"
            className="btn btn-danger btn-sm"
            onClick={() => askRevoke(apiKey)}
            data-testid="admin-api-key-revoke"
          >
            Revoke<span className="sr-only"> the key “{apiKey.name}”</span>
          </button>
        ),
    },
  ];

  return (
    <div className="admin-panel" role="group" aria-labelledby="admin-user-api-keys-title">
      <h3 id="admin-user-api-keys-title" className="admin-panel__title">
        API keys
      </h3>
      <Loaded state={state} what="the API keys">
        {(data) =>
          data.items.length === 0 ? (
            <Empty title="No API keys.">This user has not created a key for the public API.</Empty>
          ) : (
            <DataTable
              columns={columns}
              rows={data.items}
              captionId="admin-user-api-keys-caption"
              caption={`${data.items.filter((k) => !k.revoked_at).length} of ${data.max} keys active`}
              rowTestId="admin-api-key-row"
              busy={state.loading}
            />
          )
        }
      </Loaded>
    </div>
  );
}
