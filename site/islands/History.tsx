/**
 * /video-history (spec 2 "History", 5, 7 GET /api/video/history): the signed-in user's completed
 * videos, 10 per page, newest first, with the page in `?page=n`. Past the numbered pages (the
 * first 1,000 videos and a page) "Next" follows the server's `next_cursor` (`?cursor=…`). Each
 * video can be deleted after a confirmation (issue 34); the page then reloads around the gap.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { HistoryItem, HistoryResponse } from '../../shared/api/video.ts';
import { localizePath, type Locale } from '../i18n/locales.ts';
import * as m from '../i18n/messages.ts';
import { httpStatus, readApiError } from '../lib/api/http.ts';
import { getHistory, getHistoryAfter } from '../lib/api/video.ts';
import { formatNumber } from '../lib/format.ts';
import * as icons from '../lib/icons/index.ts';
import type { IconData } from '../lib/icons/index.ts';
import { GENERATOR_PATH } from '../lib/site.ts';
import { HISTORY_PAGE_SIZE } from '../../shared/video.ts';
import { $authReady, $authToken, $user } from '../stores/auth.ts';
import { LOGIN_PATH } from '../stores/google-sign-in.ts';
import LoadingScreen from './LoadingScreen.tsx';
import DeleteVideoDialog from './history/DeleteVideoDialog.tsx';
import HistoryCard from './history/HistoryCard.tsx';
import Pager, { CursorPager } from './history/Pager.tsx';
import Icon from './shared/Icon.tsx';
import SignInLink from './shared/SignInLink.tsx';
import { setUrl, subscribeToUrl } from './shared/url-state.ts';
import { useHydratedStore } from './shared/use-hydrated-store.ts';

type HistoryData = HistoryResponse['data'];

type Answer =
  | { key: string; ok: true; data: HistoryData }
  | { key: string; ok: false; message: string; signedOut: boolean; code: string };

// ---------- The place lives in the URL (`?page=n`, or `?cursor=…` past the numbered pages) ----------

/** A numbered page, or the page after a cursor. */
type Place = { page: number; cursor?: undefined } | { cursor: string; page?: undefined };

/** Answers that mean the address names no page we can show: start again at the newest. */
const STALE_PLACE = new Set(['OFFSET_TOO_DEEP', 'INVALID_CURSOR']);

/** `?page=n` as a whole number ≥ 1; anything else is page 1. */
function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The place as a string (a stable snapshot for useSyncExternalStore). */
function placeKeyFromUrl(): string {
  const params = new URLSearchParams(window.location.search);
  const cursor = params.get('cursor');
  return cursor ? `cursor:${cursor}` : `page:${parsePage(params.get('page'))}`;
}

function placeOf(key: string): Place {
  return key.startsWith('cursor:')
    ? { cursor: key.slice('cursor:'.length) }
    : { page: Number(key.slice('page:'.length)) };
}

function placeHref(place: Place): string {
  const url = new URL(window.location.href);
  url.searchParams.delete('page');
  url.searchParams.delete('cursor');
  if (place.cursor !== undefined) url.searchParams.set('cursor', place.cursor);
  else if (place.page !== 1) url.searchParams.set('page', String(place.page));
  return url.pathname + url.search + url.hash;
}

const pageHref = (page: number) => placeHref({ page });

function goTo(place: Place, how: 'push' | 'replace'): void {
  setUrl(placeHref(place), how);
}

/** The server's page size is authoritative; the pager is built from its `pages`. */
async function loadHistory(place: Place, key: string, locale: Locale): Promise<Answer> {
  try {
    const body =
      place.cursor !== undefined
        ? await getHistoryAfter(place.cursor, HISTORY_PAGE_SIZE)
        : await getHistory(place.page, HISTORY_PAGE_SIZE);
    if (!body?.success || !body.data || !Array.isArray(body.data.items)) {
      return { key, ok: false, message: m.history_load_failed(locale), signedOut: false, code: '' };
    }
    return { key, ok: true, data: body.data };
  } catch (error) {
    const signedOut = httpStatus(error) === 401;
    const apiError = readApiError(error);
    const fallback = signedOut ? m.history_sign_in_required : m.history_load_failed;
    const message = apiError?.message || fallback(locale);
    return { key, ok: false, message, signedOut, code: apiError?.code ?? '' };
  }
}

/** "12 videos", or "1,010+ videos" when the server stopped counting. */
function totalText(total: number, exact: boolean, locale: Locale): string {
  const count = `${formatNumber(total, locale)}${exact ? '' : '+'}`;
  return total === 1 && exact
    ? m.history_total_one(locale, { count })
    : m.history_total_other(locale, { count });
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
  locale: Locale;
  testId: string;
  icon: IconData;
  title: string;
  text: string;
  href: string;
  action: string;
}

/** A whole-page state (signed out, no videos yet): icon, title, text and the way forward. */
function StateMessage({ locale, testId, icon, title, text, href, action }: StateMessageProps) {
  return (
    <div className="history-state" data-testid={testId}>
      <span className="icon-circle">
        <Icon icon={icon} />
      </span>
      <h2 className="history-state__title">{title}</h2>
      <p className="history-state__text">{text}</p>
      {href === LOGIN_PATH ? (
        <SignInLink className="btn btn-primary" locale={locale}>
          {action}
        </SignInLink>
      ) : (
        <a className="btn btn-primary" href={localizePath(href, locale)}>
          {action}
        </a>
      )}
    </div>
  );
}

const SignInPrompt = ({ locale }: { locale: Locale }) => (
  <StateMessage
    locale={locale}
    testId="history-login"
    icon={icons.lock}
    title={m.history_login_title(locale)}
    text={m.history_login_text(locale)}
    href={LOGIN_PATH}
    action={m.history_login_now(locale)}
  />
);

const Empty = ({ locale }: { locale: Locale }) => (
  <StateMessage
    locale={locale}
    testId="history-empty"
    icon={icons.video}
    title={m.history_empty_title(locale)}
    text={m.history_empty_text(locale)}
    href={GENERATOR_PATH}
    action={m.history_empty_action(locale)}
  />
);

function LoadError({
  message,
  signedOut,
  onRetry,
  locale,
}: {
  message: string;
  signedOut: boolean;
  onRetry: () => void;
  locale: Locale;
}) {
  return (
    <div className="history-state history-state--error" data-testid="history-error">
      <p className="history-state__text history-state__error" role="alert">
        {message}
      </p>
      <div className="history-state__actions">
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          {m.history_retry(locale)}
        </button>
        {signedOut && (
          <SignInLink className="btn btn-secondary" locale={locale}>
            {m.history_login_now(locale)}
          </SignInLink>
        )}
      </div>
    </div>
  );
}

// ---------- The island ----------

export default function History({ locale = 'en' }: { locale?: Locale }) {
  const ready = useHydratedStore($authReady);
  const token = useHydratedStore($authToken);
  const user = useHydratedStore($user);
  const placeKey = useSyncExternalStore(subscribeToUrl, placeKeyFromUrl, () => 'page:1');
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [deleting, setDeleting] = useState<HistoryItem | null>(null);
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState('');

  const signedIn = ready && Boolean(token && user);
  const userId = signedIn ? (user?.id ?? '') : null;
  const requestKey = `${userId}:${placeKey}:${attempt}`;

  useEffect(() => {
    // Spec 5: no request without a user id.
    if (!userId) return;
    let active = true;
    const key = `${userId}:${placeKey}:${attempt}`;
    const place = placeOf(placeKey);
    void loadHistory(place, key, locale).then((result) => {
      if (!active) return;
      // An old link past the numbered pages, or a cursor we did not make: the newest videos.
      if (!result.ok && STALE_PLACE.has(result.code)) {
        goTo({ page: 1 }, 'replace');
        return;
      }
      // Past the last page (an old link, a deleted video): show the last one instead.
      const pages = result.ok ? (result.data.pages ?? 1) : 0;
      if (result.ok && result.data.items.length === 0 && (place.page ?? 1) > 1 && pages >= 1) {
        goTo({ page: Math.min((place.page ?? 2) - 1, pages) }, 'replace');
        return;
      }
      setAnswer(result);
    });
    return () => {
      active = false;
    };
  }, [userId, placeKey, attempt, locale]);

  /** Gone from the list at once (focus then falls back to the heading), and the page reloads. */
  const onDeleted = (item: HistoryItem) => {
    setDeleted((ids) => new Set(ids).add(item.id));
    setDeleting(null);
    setNotice(m.history_deleted(locale));
    setAttempt((n) => n + 1);
  };

  const select = (place: Place) => {
    setNotice('');
    goTo(place, 'push');
    headingRef.current?.focus({ preventScroll: true });
    headingRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  if (!ready || !signedIn || userId === '') {
    return (
      <div className="history-results">
        {!ready ? (
          <>
            <LoadingScreen variant="inline" locale={locale} />
            <Skeleton />
          </>
        ) : !signedIn ? (
          <SignInPrompt locale={locale} />
        ) : (
          <LoadError
            message={m.history_sign_in_required(locale)}
            signedOut
            onRetry={() => setAttempt((n) => n + 1)}
            locale={locale}
          />
        )}
      </div>
    );
  }

  const loading = answer?.key !== requestKey;
  // While the next page loads, keep the current list in place (no layout jump) and mark it busy.
  const shown = answer?.ok ? answer : null;
  const place = placeOf(placeKey);

  let body;
  if (loading && !shown) {
    body = <Skeleton />;
  } else if (!loading && answer && !answer.ok) {
    body = (
      <LoadError
        message={answer.message}
        signedOut={answer.signedOut}
        onRetry={() => setAttempt((n) => n + 1)}
        locale={locale}
      />
    );
  } else if (shown && shown.data.items.length === 0) {
    body = <Empty locale={locale} />;
  } else if (shown) {
    const { items, total, total_exact = true, pages = 1, next_cursor } = shown.data;
    const olderCursor = shown.data.has_more ? next_cursor : null;
    const older = olderCursor
      ? {
          href: placeHref({ cursor: olderCursor }),
          onSelect: () => select({ cursor: olderCursor }),
        }
      : null;
    const page = loading ? (place.page ?? 1) : (shown.data.page ?? 1);
    const numbered = place.cursor === undefined && shown.data.page !== undefined;
    body = (
      <>
        <ul
          className={`history-grid${loading ? ' is-loading' : ''}`}
          role="list"
          aria-busy={loading}
          data-testid="history-list"
        >
          {items
            .filter((item) => !deleted.has(item.id))
            .map((item) => (
              <HistoryCard
                key={item.id}
                item={item}
                source={items.find((other) => other.id === item.source_task_id)}
                onDelete={setDeleting}
                locale={locale}
              />
            ))}
        </ul>
        {numbered ? (
          <Pager
            page={page}
            pages={pages}
            hrefFor={pageHref}
            onSelect={(n) => select({ page: n })}
            older={page >= pages ? older : null}
            locale={locale}
          />
        ) : (
          <CursorPager
            first={{ href: pageHref(1), onSelect: () => select({ page: 1 }) }}
            older={older}
            locale={locale}
          />
        )}
        {numbered && total !== undefined && (
          <p className="history-total">
            {pages > 1
              ? m.history_total_with_page(locale, {
                  total: totalText(total, total_exact, locale),
                  page: formatNumber(page, locale),
                  pages: `${formatNumber(pages, locale)}${total_exact ? '' : '+'}`,
                })
              : totalText(total, total_exact, locale)}
          </p>
        )}
      </>
    );
  }

  return (
    <div className="history-results">
      <h2 className="history-results__heading" ref={headingRef} tabIndex={-1}>
        {m.history_results_heading(locale)}
      </h2>
      <p className="sr-only" role="status">
        {loading ? m.history_loading(locale) : ''}
      </p>
      <p className="history-notice" role="status" data-testid="history-notice">
        {notice}
      </p>
      {body}
      <DeleteVideoDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={onDeleted}
        fallbackFocusRef={headingRef}
        locale={locale}
      />
    </div>
  );
}
