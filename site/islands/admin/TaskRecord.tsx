/**
 * One video task's provider record (issue 17), opened beneath its row in a task table: who took
 * the job and under which request id, how many submits it took, when the provider accepted and
 * finished it, what it reported as cost, why the task failed with the provider's own error text
 * (admin only; customers read our message), and every submit the route tried.
 */
import { fromOptionsData, optionsLine, videoPrice } from '../../../shared/video-options.ts';
import type { AdminRouteAttempt, AdminTask } from '../../../shared/api/admin.ts';
import Badge, { humanize, type BadgeTone } from './Badge.tsx';
import Facts, { FactDate, type Fact } from './Facts.tsx';
import { formatDateTime } from './format.ts';

/** Submit outcomes (video_tasks.route_attempts) by how the operator should read them. */
const OUTCOME_TONES: Record<string, BadgeTone> = {
  accepted: 'good',
  rate_limited: 'warn',
  unavailable: 'warn',
  in_doubt: 'info',
  rejected: 'bad',
  content_policy: 'bad',
};

/** Seconds between two ISO times, or null when either is missing or unreadable. */
function secondsBetween(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  const ms = new Date(to).getTime() - new Date(from).getTime();
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : null;
}

/** "42 s", "3 min 05 s", "1 h 02 min": a generation takes seconds to minutes, rarely hours. */
function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${pad(whole % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
}

/** Providers bill fractions of a cent, so up to the column's six decimals are shown. */
function formatUsd(amount: number | null): string {
  if (amount === null) return 'not reported';
  return new Intl.NumberFormat(undefined, {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 6,
  }).format(amount);
}

function RouteAttempts({
  attempts,
  labelledBy,
}: {
  attempts: readonly AdminRouteAttempt[];
  labelledBy: string;
}) {
  if (attempts.length === 0) {
    return <p className="admin-task-record__none">No submit was tried yet.</p>;
  }
  return (
    <ol className="admin-task-record__attempts" aria-labelledby={labelledBy}>
      {attempts.map((attempt, index) => (
        // Entries are only ever appended, so their position is a stable key.
        <li key={index}>
          <time dateTime={attempt.at}>{formatDateTime(attempt.at)}</time>
          <span className="admin-task-record__route">
            {attempt.provider} · <code className="admin-id">{attempt.model}</code>
          </span>
          <span className="admin-badges">
            <Badge tone={OUTCOME_TONES[attempt.outcome] ?? 'neutral'}>
              {humanize(attempt.outcome)}
            </Badge>
            {attempt.status !== null && <Badge tone="neutral">HTTP {attempt.status}</Badge>}
          </span>
        </li>
      ))}
    </ol>
  );
}

export default function TaskRecord({ id, task }: { id: string; task: AdminTask }) {
  const titleId = `${id}-title`;
  const facts: Fact[] = [
    ['Provider', task.provider],
    ['Model', task.provider_model ?? 'none accepted the job yet'],
    [
      'Request id',
      task.provider_request_id ? <code className="admin-id">{task.provider_request_id}</code> : '—',
    ],
    ['Attempts', task.attempts.toLocaleString()],
    ['Submitted', <FactDate iso={task.submitted_at} />],
    ['Provider finished', <FactDate iso={task.provider_finished_at} />],
    // The provider's share of the wait, then the customer's whole wait (queue included),
    // the same measure as the providers' p50/p95 on the overview.
    ['Provider time', formatDuration(secondsBetween(task.submitted_at, task.provider_finished_at))],
    ['Time to done', formatDuration(secondsBetween(task.created_at, task.completed_at))],
    ['Provider cost', formatUsd(task.provider_cost_usd)],
    ['Options', optionsLine(task.options) || 'none (the standard clip)'],
    ['Length', `${task.duration_seconds} s`],
    ...(task.source_task_id
      ? [['Extends', <code className="admin-id">{task.source_task_id}</code>] as Fact]
      : []),
    // What the same video costs at today's prices (content/video-pricing.json), beside the
    // credits it was charged.
    ['Price today', `${videoPrice(fromOptionsData(task.options, !!task.source_task_id))} credits`],
    ['Failure kind', task.failure_kind ? humanize(task.failure_kind) : '—'],
  ];

  return (
    <div id={id} className="admin-task-record" role="group" aria-labelledby={titleId}>
      <p id={titleId} className="admin-task-record__title">
        Provider record
      </p>
      <Facts facts={facts} />
      {task.provider_error && (
        <div className="admin-card__error">
          <p className="admin-card__error-title">Provider error (never shown to the customer)</p>
          {/* Focusable: a long text scrolls inside its box, and the keyboard must reach it. */}
          <pre tabIndex={0}>{task.provider_error}</pre>
        </div>
      )}
      <p id={`${id}-attempts`} className="admin-task-record__title">
        Submits tried
      </p>
      <RouteAttempts labelledBy={`${id}-attempts`} attempts={task.route_attempts} />
    </div>
  );
}
