/**
 * Overview: the counts an operator looks at first (users, tasks by status, payments, webhook
 * traffic), whether the public site's last build went live, and an on-demand subsystem check.
 */
import { useCallback, useState } from 'react';
import type { AdminSiteBuild, SiteBuildState } from '../../../server/contracts/admin.ts';
import { apiErrorMessage } from '../../lib/api.ts';
import { getOverview, runSystemCheck, type SystemCheck } from '../../lib/admin-api.ts';
import Badge, { type BadgeTone } from './Badge.tsx';
import FactDate from './FactDate.tsx';
import { formatDateTime, formatMoney } from './format.ts';
import { Loading, LoadError } from './ListStates.tsx';
import { sectionHref } from './route.ts';
import { useAdminData } from './use-admin-data.ts';

const BUILD_STATES: Record<SiteBuildState, { label: string; tone: BadgeTone; text: string }> = {
  idle: { label: 'Live', tone: 'good', text: 'The latest release is being served.' },
  queued: {
    label: 'Queued',
    tone: 'info',
    text: 'A content change is waiting for the next build; the current release stays live.',
  },
  building: {
    label: 'Building',
    tone: 'warn',
    text: 'A new release is being built; the current one stays live until it is ready.',
  },
  failed: {
    label: 'Failed',
    tone: 'bad',
    text: 'The last build failed, so the previous release is still live.',
  },
};

function BuildCard({ build }: { build: AdminSiteBuild }) {
  const state = BUILD_STATES[build.state] ?? {
    label: build.state,
    tone: 'neutral' as const,
    text: '',
  };
  return (
    <article className="admin-card admin-card--wide" data-testid="admin-build">
      <h3 className="admin-card__label">Public site build</h3>
      <p className="admin-card__status">
        <Badge tone={state.tone}>{state.label}</Badge>
        <span>{state.text}</span>
      </p>
      <dl className="admin-facts">
        <div>
          <dt>Live release</dt>
          <dd>{build.liveRelease ? <code>{build.liveRelease}</code> : 'None yet'}</dd>
        </div>
        <div>
          <dt>Built</dt>
          <dd>
            <FactDate iso={build.builtAt} />
          </dd>
        </div>
      </dl>
      {build.lastError && (
        <div className="admin-card__error">
          <p className="admin-card__error-title">Last build error</p>
          <pre>{build.lastError}</pre>
        </div>
      )}
    </article>
  );
}

type CheckState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; result: SystemCheck; at: string }
  | { status: 'failed'; message: string };

function SystemCheckCard() {
  const [check, setCheck] = useState<CheckState>({ status: 'idle' });
  const run = async () => {
    setCheck({ status: 'running' });
    try {
      const result = await runSystemCheck();
      setCheck({ status: 'done', result, at: new Date().toISOString() });
    } catch (error) {
      console.error('[admin] system check failed', error);
      setCheck({
        status: 'failed',
        message: apiErrorMessage(error, 'The system check could not run. Please try again.'),
      });
    }
  };
  const running = check.status === 'running';
  return (
    <article className="admin-card admin-card--wide" aria-busy={running}>
      <div className="admin-card__head">
        <h3 className="admin-card__label">System check</h3>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => void run()}
          disabled={running}
        >
          {running && <span className="spinner spinner-sm" aria-hidden="true" />}
          {running ? 'Checking…' : 'Run system check'}
        </button>
      </div>
      <div aria-live="polite">
        {check.status === 'idle' && (
          <p className="admin-card__hint">
            Writes and reads a test row and a test file, and checks each configured provider.
          </p>
        )}
        {check.status === 'failed' && (
          <p className="admin-card__hint admin-text-bad" role="alert">
            {check.message}
          </p>
        )}
        {check.status === 'done' && (
          <>
            <p className="admin-card__status">
              <Badge tone={check.result.ok ? 'good' : 'bad'}>
                {check.result.ok ? 'All working' : 'Problems found'}
              </Badge>
              <span>Checked {formatDateTime(check.at)}</span>
            </p>
            <ul className="admin-checks" role="list">
              {check.result.checks.map((item) => (
                <li key={item.name} className={item.ok ? 'is-ok' : 'is-failed'}>
                  <span className="admin-checks__name">{item.name}</span>
                  <Badge tone={item.ok ? 'good' : 'bad'}>{item.ok ? 'OK' : 'Failed'}</Badge>
                  <span className="admin-checks__detail">{item.detail}</span>
                  <span className="admin-checks__ms">{Math.round(item.ms)} ms</span>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </article>
  );
}

export default function Overview() {
  const load = useCallback(() => getOverview(), []);
  const { data, loading, error, reload } = useAdminData(load);

  return (
    <section className="admin-view" aria-labelledby="admin-view-title" aria-busy={loading}>
      <div className="admin-view__head">
        <h2 id="admin-view-title" tabIndex={-1}>
          Overview
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
        <Loading what="the overview" />
      ) : (
        <div className="admin-cards">
          <article className="admin-card">
            <h3 className="admin-card__label">Users</h3>
            <p className="admin-card__value" data-testid="admin-count-users">
              {data.users.toLocaleString()}
            </p>
            <a className="admin-card__link" href={sectionHref('users')}>
              Find a user
            </a>
          </article>

          <article className="admin-card">
            <h3 className="admin-card__label">Video tasks</h3>
            <p className="admin-card__value">
              {(
                data.tasks.pending +
                data.tasks.processing +
                data.tasks.completed +
                data.tasks.failed
              ).toLocaleString()}
            </p>
            <dl className="admin-facts admin-facts--compact">
              {(['pending', 'processing', 'completed', 'failed'] as const).map((status) => (
                <div key={status}>
                  <dt>{status.charAt(0).toUpperCase() + status.slice(1)}</dt>
                  <dd>{data.tasks[status].toLocaleString()}</dd>
                </div>
              ))}
            </dl>
            <a className="admin-card__link" href={sectionHref('tasks')}>
              See tasks
            </a>
          </article>

          <article className="admin-card">
            <h3 className="admin-card__label">Paid checkouts</h3>
            <p className="admin-card__value">{data.payments.paid.toLocaleString()}</p>
            <dl className="admin-facts admin-facts--compact">
              {Object.entries(data.payments.revenueCents).length === 0 ? (
                <div>
                  <dt>Revenue</dt>
                  <dd>None yet</dd>
                </div>
              ) : (
                Object.entries(data.payments.revenueCents).map(([currency, cents]) => (
                  <div key={currency}>
                    <dt>Revenue ({currency.toUpperCase()})</dt>
                    <dd>{formatMoney(cents, currency)}</dd>
                  </div>
                ))
              )}
            </dl>
            <a className="admin-card__link" href={sectionHref('payments')}>
              See payments
            </a>
          </article>

          <article className="admin-card">
            <h3 className="admin-card__label">Webhook events</h3>
            <p className="admin-card__value">{data.webhooksLast24h.toLocaleString()}</p>
            <p className="admin-card__hint">received in the last 24 hours</p>
            <a className="admin-card__link" href={sectionHref('webhooks')}>
              See webhook events
            </a>
          </article>

          <BuildCard build={data.build} />
          <SystemCheckCard />
        </div>
      )}
    </section>
  );
}
