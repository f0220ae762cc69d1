/**
 * Overview: the counts an operator looks at first (users, tasks by status, payments, webhook
 * traffic), the last 30 days charted (DailyCharts.tsx), whether the public site's last build went
 * live, and an on-demand subsystem check.
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';
import type {
  AdminSiteBuild,
  OverviewResponse,
  SiteBuildState,
} from '../../../shared/api/admin.ts';
import { DAILY_STATS_DEFAULT_DAYS } from '../../../shared/admin.ts';
import { TASK_STATUSES } from '../../../shared/video.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import {
  getDailyStats,
  getOverview,
  runSystemCheck,
  type SystemCheck,
} from '../../lib/api/admin.ts';
import AdminView, { RefreshButton } from './AdminView.tsx';
import Badge, { type BadgeTone } from './Badge.tsx';
import DailyCharts from './DailyCharts.tsx';
import EmailPreviewsCard from './EmailPreviewsCard.tsx';
import Facts, { FactDate, type Fact } from './Facts.tsx';
import { formatDateTime, formatMoney } from './format.ts';
import { Loaded } from './ListStates.tsx';
import MarginCard from './MarginCard.tsx';
import { sectionHref, type Section } from './route.ts';
import { useAdminData } from './use-admin-data.ts';
import VideoProvidersCard from './VideoProvidersCard.tsx';
import PromotionCodesCard from './PromotionCodesCard.tsx';

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
      <Facts
        facts={[
          ['Live release', build.liveRelease ? <code>{build.liveRelease}</code> : 'None yet'],
          ['Built', <FactDate iso={build.builtAt} />],
        ]}
      />
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

/** Revenue in each currency that has any, or that there is none yet. */
function revenueFacts(revenueCents: Record<string, number>): Fact[] {
  const entries = Object.entries(revenueCents);
  if (entries.length === 0) return [['Revenue', 'None yet']];
  return entries.map(([currency, cents]) => [
    `Revenue (${currency.toUpperCase()})`,
    formatMoney(cents, currency),
  ]);
}

/** Customers' webhook deliveries of the last 24 hours (issue 36): attempts by outcome. */
function CustomerWebhooksCard({
  counts,
}: {
  counts: OverviewResponse['data']['customerWebhooks24h'];
}) {
  return (
    <article className="admin-card" data-testid="admin-customer-webhooks">
      <h3 className="admin-card__label">Customer webhooks</h3>
      <p className="admin-card__value">{counts.sent.toLocaleString()}</p>
      <p className="admin-card__hint">delivered in the last 24 hours</p>
      <Facts
        compact
        facts={[
          ['Retried', counts.retried.toLocaleString()],
          ['Failed', counts.failed.toLocaleString()],
          ['Endpoints disabled', counts.endpointsDisabled.toLocaleString()],
        ]}
      />
    </article>
  );
}

/** A headline count with what lies behind it and a link to the section that lists it. */
function CountCard({
  label,
  count,
  testId,
  section,
  link,
  children,
}: {
  label: string;
  count: number;
  testId?: string;
  section: Section;
  link: string;
  children?: ReactNode;
}) {
  return (
    <article className="admin-card">
      <h3 className="admin-card__label">{label}</h3>
      <p className="admin-card__value" data-testid={testId}>
        {count.toLocaleString()}
      </p>
      {children}
      <a className="admin-card__link" href={sectionHref(section)}>
        {link}
      </a>
    </article>
  );
}

export default function Overview() {
  // The counts are cached 30 s and the charts' figures a minute for page loads; Refresh asks
  // for both as of now. The charts load beside the overview, not after it (their query is slower).
  const fresh = useRef(false);
  const loadOverview = useCallback(() => getOverview(fresh.current), []);
  const overview = useAdminData(loadOverview);
  const loadDaily = useCallback(() => getDailyStats(DAILY_STATS_DEFAULT_DAYS, fresh.current), []);
  const daily = useAdminData(loadDaily);
  const refresh = {
    loading: overview.loading || daily.loading,
    reload: () => {
      fresh.current = true;
      overview.reload();
      daily.reload();
    },
  };

  return (
    <AdminView title="Overview" tools={<RefreshButton state={refresh} />} busy={overview.loading}>
      <Loaded state={overview} what="the overview">
        {(data) => (
          <div className="admin-cards">
            <CountCard
              label="Users"
              count={data.users}
              testId="admin-count-users"
              section="users"
              link="Find a user"
            />
            <CountCard
              label="Video tasks"
              count={TASK_STATUSES.reduce((sum, status) => sum + data.tasks[status], 0)}
              section="tasks"
              link="See tasks"
            >
              <Facts
                compact
                facts={TASK_STATUSES.map((status) => [
                  status.charAt(0).toUpperCase() + status.slice(1),
                  data.tasks[status].toLocaleString(),
                ])}
              />
            </CountCard>
            <CountCard
              label="Paid checkouts"
              count={data.payments.paid}
              section="payments"
              link="See payments"
            >
              <Facts compact facts={revenueFacts(data.payments.revenueCents)} />
            </CountCard>
            <CountCard
              label="Webhook events"
              count={data.webhooksLast24h}
              section="webhooks"
              link="See webhook events"
            >
              <p className="admin-card__hint">received in the last 24 hours</p>
            </CountCard>
            <CustomerWebhooksCard counts={data.customerWebhooks24h} />

            <DailyCharts state={daily} />
            <MarginCard refreshed={data} />

            <VideoProvidersCard providers={data.videoProviders} />
            <PromotionCodesCard />
            <BuildCard build={data.build} />
            <SystemCheckCard />
            <EmailPreviewsCard />
          </div>
        )}
      </Loaded>
    </AdminView>
  );
}
