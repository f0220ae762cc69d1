/**
 * /video-history (spec 2 "History", 5, 7 GET /api/video/history): the signed-in user's completed
 * videos, 10 per page, newest first, with the page in `?page=n`.
 */
import { useStore } from '@nanostores/react';
import { isHTTPError } from 'ky';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { HistoryResponse } from '../../server/contracts/video.ts';
import { api, readApiError } from '../lib/api.ts';
import { GENERATOR_PATH } from '../lib/site.ts';
import { $authReady, $authToken, $user, initAuth } from '../stores/auth.ts';
import HistoryCard from './history/HistoryCard.tsx';
import Pager from './history/Pager.tsx';

const HYDRATE = { ssr: 'initial' } as const;

/** Spec 9: history pages hold 10 videos. */
export const HISTORY_PAGE_SIZE = 10;
/** Spec 5: history needs a user with an id. */
export const LOGIN_FIRST = 'Please login first';
const LOAD_FAILED = 'Could not load your videos. Please try again.';

type HistoryData = HistoryResponse['data'];

type Answer =
  | { key: string; ok: true; data: HistoryData }
  | { key: string; ok: false; message: string; signedOut: boolean };

// ---------- The page lives in the URL (`?page=n`) ----------

const urlListeners = new Set<() => void>();

function subscribeToUrl(onChange: () => void): () => void {
  urlListeners.add(onChange);
  window.addEventListener('popstate', onChange);
  return () => {
    urlListeners.delete(onChange);
    window.removeEventListener('popstate', onChange);
  };
}

/** `?page=n` as a whole number ≥ 1; anything else is page 1. */
export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function pageFromUrl(): number {
  return parsePage(new URLSearchParams(window.location.search).get('page'));
}

function pageHref(page: number): string {
  const url = new URL(window.location.href);
  if (page === 1) url.searchParams.delete('page');
  else url.searchParams.set('page', String(page));
  return url.pathname + url.search + url.hash;
}

function goToPage(page: number, how: 'push' | 'replace'): void {
  const href = pageHref(page);
  if (how === 'push') window.history.pushState(window.history.state, '', href);
  else window.history.replaceState(window.history.state, '', href);
  for (const listener of urlListeners) listener();
}

/** The server's page size is authoritative; the pager is built from its `pages`. */
async function loadHistory(page: number, key: string): Promise<Answer> {
  try {
    const body = await api
      .get('/api/video/history', { searchParams: { page, limit: HISTORY_PAGE_SIZE } })
      .json<HistoryResponse>();
    if (!body?.success || !body.data || !Array.isArray(body.data.items)) {
      return { key, ok: false, message: LOAD_FAILED, signedOut: false };
    }
    return { key, ok: true, data: body.data };
  } catch (error) {
    const signedOut = isHTTPError(error) && error.response.status === 401;
    const message = readApiError(error)?.message || (signedOut ? LOGIN_FIRST : LOAD_FAILED);
    return { key, ok: false, message, signedOut };
  }
}

// ---------- Pieces ----------

function Skeleton({ count = 4 }: { count?: number }) {
  return (
    <ul className="history-grid" role="list" aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} className="history-card history-card--skeleton">
          <div className="history-card__video skeleton-block" />
          <div className="history-card__body">
            <span className="skeleton-line" />
            <span className="skeleton-line skeleton-line--short" />
            <span className="skeleton-pill" />
          </div>
        </li>
      ))}
    </ul>
  );
}

function SignInPrompt() {
  return (
    <div className="history-state" data-testid="history-login">
      <span className="history-state__icon">
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <g fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <rect x="4" y="10" width="16" height="11" rx="2" />
            <path d="M8 10V7a4 4 0 0 1 8 0v3" />
          </g>
        </svg>
      </span>
      <h2 className="history-state__title">Sign in to see your videos</h2>
      <p className="history-state__text">
        Your history keeps every video you have generated, ready to watch and download.
      </p>
      <a className="btn btn-primary" href="/login">
        Login Now
      </a>
    </div>
  );
}

function Empty() {
  return (
    <div className="history-state" data-testid="history-empty">
      <span className="history-state__icon">
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <g
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <rect x="2" y="4" width="20" height="16" rx="2" />
            <path d="M10 9.5v5l4-2.5z" />
          </g>
        </svg>
      </span>
      <h2 className="history-state__title">No completed videos yet</h2>
      <p className="history-state__text">Videos you generate appear here once they are ready.</p>
      <a className="btn btn-primary" href={GENERATOR_PATH}>
        Generate a video
      </a>
    </div>
  );
}

function LoadError({
  message,
  signedOut,
  onRetry,
}: {
  message: string;
  signedOut: boolean;
  onRetry: () => void;
}) {
  return (
    <div className="history-state history-state--error" data-testid="history-error">
      <p className="history-state__text history-state__error" role="alert">
        {message}
      </p>
      <div className="history-state__actions">
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          Retry
        </button>
        {signedOut && (
          <a className="btn btn-secondary" href="/login">
            Login Now
          </a>
        )}
      </div>
    </div>
  );
}

// ---------- The island ----------

export default function History() {
  const ready = useStore($authReady, HYDRATE);
  const token = useStore($authToken, HYDRATE);
  const user = useStore($user, HYDRATE);
  const page = useSyncExternalStore(subscribeToUrl, pageFromUrl, () => 1);
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const signedIn = ready && Boolean(token && user);
  const userId = signedIn ? (user?.id ?? '') : null;
  const requestKey = `${userId}:${page}:${attempt}`;

  useEffect(() => {
    initAuth();
  }, []);

  useEffect(() => {
    // Spec 5: no request without a user id.
    if (!userId) return;
    let active = true;
    const key = `${userId}:${page}:${attempt}`;
    void loadHistory(page, key).then((result) => {
      if (!active) return;
      // Past the last page (an old link, a deleted video): show the last one instead.
      if (result.ok && result.data.items.length === 0 && page > 1 && result.data.pages >= 1) {
        goToPage(Math.min(page - 1, result.data.pages), 'replace');
        return;
      }
      setAnswer(result);
    });
    return () => {
      active = false;
    };
  }, [userId, page, attempt]);

  const selectPage = (next: number) => {
    goToPage(next, 'push');
    headingRef.current?.focus({ preventScroll: true });
    headingRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  if (!ready || !signedIn || userId === '') {
    return (
      <div className="history-results">
        {!ready ? (
          <Skeleton />
        ) : !signedIn ? (
          <SignInPrompt />
        ) : (
          <LoadError message={LOGIN_FIRST} signedOut onRetry={() => setAttempt((n) => n + 1)} />
        )}
      </div>
    );
  }

  const loading = answer?.key !== requestKey;
  // While the next page loads, keep the current list in place (no layout jump) and mark it busy.
  const shown = answer?.ok ? answer : null;

  let body;
  if (loading && !shown) {
    body = <Skeleton />;
  } else if (!loading && answer && !answer.ok) {
    body = (
      <LoadError
        message={answer.message}
        signedOut={answer.signedOut}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  } else if (shown && shown.data.items.length === 0) {
    body = <Empty />;
  } else if (shown) {
    const { items, total, pages } = shown.data;
    body = (
      <>
        <ul
          className={`history-grid${loading ? ' is-loading' : ''}`}
          role="list"
          aria-busy={loading}
          data-testid="history-list"
        >
          {items.map((item) => (
            <HistoryCard key={item.id} item={item} />
          ))}
        </ul>
        <Pager
          page={loading ? page : shown.data.page}
          pages={pages}
          hrefFor={(n) => pageHref(n)}
          onSelect={selectPage}
        />
        <p className="history-total">
          {total.toLocaleString('en-US')} {total === 1 ? 'video' : 'videos'}
          {pages > 1 && ` · page ${page} of ${pages}`}
        </p>
      </>
    );
  }

  return (
    <div className="history-results">
      <h2 className="history-results__heading" ref={headingRef} tabIndex={-1}>
        Your videos
      </h2>
      <p className="sr-only" role="status">
        {loading ? 'Loading your videos…' : ''}
      </p>
      {body}
    </div>
  );
}
