/**
 * The video providers on the overview (issue 17): each one's place in the routes, whether its
 * breaker is open or it asked us to wait, its last error (the provider's own words, admin only),
 * and the last 24 hours: tasks, success rate, p50/p95 time to a playable video; and (issue 37) each
 * route entry whose default video costs more than its credits bring at the cheapest credit price.
 */
import type { AdminVideoProvider } from '../../../shared/api/admin.ts';
import { VIDEO_COST } from '../../../shared/video.ts';
import Badge from './Badge.tsx';
import Facts, { FactDate } from './Facts.tsx';
import { formatDateTime } from './format.ts';

function state(p: AdminVideoProvider) {
  if (p.breakerOpenUntil) {
    return {
      tone: 'bad' as const,
      label: 'Skipped',
      text: `breaker open until ${formatDateTime(p.breakerOpenUntil)}`,
    };
  }
  if (p.rateLimitedUntil) {
    return {
      tone: 'warn' as const,
      label: 'Rate limited',
      text: `waiting until ${formatDateTime(p.rateLimitedUntil)}`,
    };
  }
  if (p.consecutiveFailures > 0) {
    return {
      tone: 'warn' as const,
      label: 'Failing',
      text: `${p.consecutiveFailures} submits in a row not accepted`,
    };
  }
  return { tone: 'good' as const, label: 'Healthy', text: '' };
}

const seconds = (n: number | null) => (n === null ? '—' : `${n.toLocaleString()} s`);

export default function VideoProvidersCard({ providers }: { providers: AdminVideoProvider[] }) {
  return (
    <article className="admin-card admin-card--wide" data-testid="admin-video-providers">
      <h3 className="admin-card__label">Video providers</h3>
      {providers.length === 0 && <p className="admin-card__hint">No provider is configured.</p>}
      {providers.map((p) => {
        const s = state(p);
        return (
          <section
            key={p.provider}
            className="admin-provider"
            aria-label={`Provider ${p.provider}`}
          >
            <p className="admin-card__status">
              <strong>{p.provider}</strong>
              <Badge tone={s.tone}>{s.label}</Badge>
              {s.text && <span>{s.text}</span>}
            </p>
            <Facts
              compact
              facts={[
                ['Routes', p.routes.length ? p.routes.join(', ') : 'none (jobs in flight only)'],
                ['Tasks (24 h)', p.tasks24h.toLocaleString()],
                [
                  'Success rate',
                  p.successRate === null ? '—' : `${(p.successRate * 100).toFixed(1)} %`,
                ],
                ['p50 / p95', `${seconds(p.p50Seconds)} / ${seconds(p.p95Seconds)}`],
              ]}
            />
            {p.losses.length > 0 && (
              <div className="admin-card__error" aria-label={`${p.provider} loses money`}>
                <p className="admin-card__error-title">
                  Loses money at the cheapest credit price (default video, {VIDEO_COST} credits)
                </p>
                {p.losses.map((loss) => (
                  <p key={loss} className="admin-card__hint">
                    {loss}
                  </p>
                ))}
              </div>
            )}
            {p.lastError && (
              <div className="admin-card__error">
                <p className="admin-card__error-title">
                  Last error, <FactDate iso={p.lastErrorAt} />
                </p>
                <pre>{p.lastError}</pre>
              </div>
            )}
          </section>
        );
      })}
    </article>
  );
}
