/**
 * /video-history (spec 2 "History", 5, 7 GET /api/video/history): the signed-in user's completed
 * videos, 10 per page, newest first, with the page in `?page=n`.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { HistoryResponse } from '../../server/contracts/video.ts';
import { httpStatus, readApiError } from '../lib/api/http.ts';
import { getHistory } from '../lib/api/video.ts';
import * as icons from '../lib/icons/index.ts';
import type { IconData } from '../lib/icons/index.ts';
import { GENERATOR_PATH } from '../lib/site.ts';
import { HISTORY_MESSAGES, HISTORY_PAGE_SIZE } from '../../shared/video.ts';
import { $authReady, $authToken, $user } from '../stores/auth.ts';
import HistoryCard from './history/HistoryCard.tsx';
import Pager from './history/Pager.tsx';
import Icon from './shared/Icon.tsx';
import { setUrl, subscribeToUrl } from './shared/url-state.ts';
import { useHydratedStore } from './shared/use-hydrated-store.ts';

/** Spec 5: history needs a user with an id. */
export const LOGIN_FIRST = HISTORY_MESSAGES.signInRequired;
const LOAD_FAILED = 'Could not load your videos. Please try again.';

type HistoryData = HistoryResponse['data'];

type Answer =
  | { key: string; ok: true; data: HistoryData }
  | { key: string; ok: false; message: string; signedOut: boolean };

// ---------- The page lives in the URL (`?page=n`) ----------

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
  setUrl(pageHref(page), how);
}

/** The server's page size is authoritative; the pager is built from its `pages`. */
async function loadHistory(page: number, key: string): Promise<Answer> {
  try {
    const body = await getHistory(page, HISTORY_PAGE_SIZE);
    if (!body?.success || !body.data || !Array.isArray(body.data.items)) {
      return { key, ok: false, message: LOAD_FAILED, signedOut: false };
    }
    return { key, ok: true, data: body.data };
  } catch (error) {
    const signedOut = httpStatus(error) === 401;
    const message = readApiError(error)?.message || (signedOut ? LOGIN_FIRST : LOAD_FAILED);
    return { key, ok: false, message, signedOut };
  }
}

// ---------- Pieces ----------

function Skeleton({ count = 4 }: { count?: number }) {
  return (
    <ul className="history-grid" role="list" aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} className="card history-card history-card--skeleton">
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

interface StateMessageProps {
  testId: string;
  icon: IconData;
  title: string;
  text: string;
  href: string;
  action: string;
}

/** A whole-page state (signed out, no videos yet): icon, title, text and the way forward. */
function StateMessage({ testId, icon, title, text, href, action }: StateMessageProps) {
  return (
    <div className="history-state" data-testid={testId}>
      <span className="icon-circle">
        <Icon icon={icon} />
      </span>
      <h2 className="history-state__title">{title}</h2>
      <p className="history-state__text">{text}</p>
      <a className="btn btn-primary" href={href}>
        {action}
      </a>
    </div>
  );
}

const SignInPrompt = () => (
  <StateMessage
    testId="history-login"
    icon={icons.lock}
    title="Sign in to see your videos"
    text="Your history keeps every video you have generated, ready to watch and download."
    href="/login"
    action="Login Now"
  />
);

const Empty = () => (
  <StateMessage
    testId="history-empty"
    icon={icons.video}
    title="No completed videos yet"
    text="Videos you generate appear here once they are ready."
    href={GENERATOR_PATH}
    action="Generate a video"
  />
);

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
  const ready = useHydratedStore($authReady);
  const token = useHydratedStore($authToken);
  const user = useHydratedStore($user);
  const page = useSyncExternalStore(subscribeToUrl, pageFromUrl, () => 1);
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const signedIn = ready && Boolean(token && user);
  const userId = signedIn ? (user?.id ?? '') : null;
  const requestKey = `${userId}:${page}:${attempt}`;

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
