/**
 * One user's panel: balance and account facts, subscription, the two changes an admin can make
 * (adjust credits, grant or revoke blog access), the paged ledger, the API keys (revocable) and
 * the latest tasks.
 */
import { useCallback, useState } from 'react';
import type { AdminSubscription, AdminUser } from '../../../shared/api/admin.ts';
import { getUserDetail, setBlogAccess } from '../../lib/api/admin.ts';
import { useConfirmAction } from './ActionDialog.tsx';
import ApiKeysCard from './ApiKeysCard.tsx';
import Badge, { humanize, stateTone } from './Badge.tsx';
import CreditAdjustForm from './CreditAdjustForm.tsx';
import Facts, { FactDate } from './Facts.tsx';
import { formatCredits } from './format.ts';
import Ledger from './Ledger.tsx';
import { Empty, Loading, LoadError } from './ListStates.tsx';
import TaskTable from './TaskTable.tsx';
import { useAdminData } from './use-admin-data.ts';

function SubscriptionFacts({ subscription }: { subscription: AdminSubscription | null }) {
  if (!subscription) {
    return <p className="admin-muted">No subscription. Credits come from packs and adjustments.</p>;
  }
  return (
    <Facts
      facts={[
        ['Plan', humanize(subscription.plan_id)],
        ['Billing', subscription.billing_cycle === 'yearly' ? 'Yearly' : 'Monthly'],
        [
          'Status',
          <Badge tone={stateTone(subscription.status)}>{humanize(subscription.status)}</Badge>,
        ],
        [
          subscription.cancel_at_period_end ? 'Ends' : 'Renews',
          <FactDate iso={subscription.current_period_end} />,
        ],
        ['Provider', humanize(subscription.provider)],
      ]}
    />
  );
}

function BlogAccess({ user, onChanged }: { user: AdminUser; onChanged: () => void }) {
  const confirmAction = useConfirmAction();
  const granting = !user.can_manage_blog;

  const ask = () =>
    confirmAction({
      question: granting
        ? `Grant blog access to ${user.email}?`
        : `Revoke blog access from ${user.email}?`,
      details: granting ? (
        <p>
          They will see Blog Admin in the header and can create, edit, publish and delete any
          article at /blog-admin. The audit log records that you granted it.
        </p>
      ) : (
        <p>
          They lose Blog Admin and can no longer create, edit or delete articles. Articles that are
          already published stay online. The audit log records that you revoked it.
        </p>
      ),
      confirmLabel: granting ? 'Grant blog access' : 'Revoke blog access',
      tone: granting ? 'primary' : 'danger',
      run: async () => {
        const result = await setBlogAccess(user.id, granting);
        return (
          result.message ||
          (result.user.can_manage_blog
            ? `${user.email} can now manage the blog.`
            : `${user.email} can no longer manage the blog.`)
        );
      },
      onDone: onChanged,
    });

  return (
    <div className="admin-blog-access">
      <h3 className="admin-panel__title">Blog access</h3>
      <p className="admin-form__hint">
        {user.can_manage_blog
          ? 'This user can manage blog articles.'
          : 'This user cannot manage blog articles.'}
      </p>
      <button
        type="button"
        className={granting ? 'btn btn-secondary btn-sm' : 'btn btn-danger btn-sm'}
        onClick={ask}
      >
        {granting ? 'Grant blog access' : 'Revoke blog access'}
      </button>
    </div>
  );
}

export default function UserDetail({ userId }: { userId: string }) {
  const load = useCallback(() => getUserDetail(userId), [userId]);
  const { data, loading, error, reload } = useAdminData(load);
  /** Bumped after each change: the ledger starts again at its newest entry. */
  const [changes, setChanges] = useState(0);

  const onChanged = useCallback(() => {
    reload();
    setChanges((n) => n + 1);
  }, [reload]);

  if (error && !data) return <LoadError message={error} onRetry={reload} />;
  if (!data) return <Loading what="this user" />;

  const { user, subscription, tasks } = data;
  return (
    <div className="admin-user" aria-busy={loading} data-testid="admin-user-detail">
      <div className="admin-user__head">
        <div>
          <h2 id="admin-view-title" tabIndex={-1} className="admin-user__email">
            {user.email}
          </h2>
          <p className="admin-user__name">{user.name || 'No display name'}</p>
        </div>
        <p className="admin-user__balance">
          <span className="admin-user__balance-label">Balance</span>
          <strong data-testid="admin-user-credits">{formatCredits(user.credits)}</strong>
        </p>
      </div>
      {error && (
        <p className="admin-inline-error" role="alert">
          {error}
        </p>
      )}

      <div className="admin-user__grid">
        <div className="admin-panel">
          <h3 className="admin-panel__title">Account</h3>
          <Facts
            facts={[
              ['Blog access', user.can_manage_blog ? 'Yes' : 'No'],
              ['Sign-in', humanize(user.provider)],
              ['Joined', <FactDate iso={user.created_at} />],
              ['User id', <code className="admin-id">{user.id}</code>],
            ]}
          />
          <h3 className="admin-panel__title admin-panel__title--spaced">Subscription</h3>
          <SubscriptionFacts subscription={subscription} />
        </div>

        <div className="admin-panel admin-panel--actions">
          <CreditAdjustForm user={user} onAdjusted={onChanged} />
          <BlogAccess user={user} onChanged={onChanged} />
        </div>
      </div>

      <Ledger key={changes} userId={user.id} />

      <ApiKeysCard userId={user.id} email={user.email} />

      <div className="admin-panel" role="group" aria-labelledby="admin-user-tasks-title">
        <h3 id="admin-user-tasks-title" className="admin-panel__title">
          Recent tasks
        </h3>
        {tasks.length === 0 ? (
          <Empty title="No video tasks yet.">This user has not generated any videos.</Empty>
        ) : (
          <TaskTable
            tasks={tasks}
            captionId="admin-user-tasks-caption"
            caption={`The latest ${tasks.length === 1 ? 'task' : `${tasks.length} tasks`}, newest first`}
            showUser={false}
            busy={loading}
            onRefunded={onChanged}
          />
        )}
      </div>
    </div>
  );
}
