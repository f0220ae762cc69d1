/**
 * Loads one admin list or record. A new `load` (the caller's useCallback, so a new query or page)
 * or `reload()` fetches again; the last good data stays on screen meanwhile so tables do not jump.
 */
import { useCallback, useEffect, useState } from 'react';
import type { Page } from '../../lib/api/admin.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';

const LOAD_FAILED = 'Could not load this from the server. Check the connection and retry.';

type Answer<T> =
  | { load: () => Promise<T>; attempt: number; ok: true; data: T }
  | { load: () => Promise<T>; attempt: number; ok: false; message: string };

export interface AdminData<T> {
  /** The latest successful answer (possibly for the previous query while `loading`). */
  data: T | null;
  loading: boolean;
  /** The server's message, or a generic one, when the latest request failed. */
  error: string | null;
  reload: () => void;
}

export function useAdminData<T>(load: () => Promise<T>): AdminData<T> {
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [lastGood, setLastGood] = useState<T | null>(null);

  useEffect(() => {
    let active = true;
    load().then(
      (data) => {
        if (!active) return;
        setAnswer({ load, attempt, ok: true, data });
        setLastGood(data);
      },
      (error: unknown) => {
        if (!active) return;
        console.error('[admin] load failed', error);
        setAnswer({ load, attempt, ok: false, message: apiErrorMessage(error, LOAD_FAILED) });
      },
    );
    return () => {
      active = false;
    };
  }, [load, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const current = answer !== null && answer.load === load && answer.attempt === attempt;
  return {
    data: current && answer.ok ? answer.data : lastGood,
    loading: !current,
    error: current && !answer.ok ? answer.message : null,
    reload,
  };
}

/**
 * Where the page on screen is. Next follows the page's `next_cursor` (any depth in constant
 * time); Previous goes back to the position before, kept as a chain. The total comes with the
 * first (offset) page only and is carried along, since a cursor page carries none.
 */
export interface PagePosition {
  /** Rows before this page: its first row is number offset + 1. */
  offset: number;
  /** The cursor this page is fetched with; null: by offset. */
  cursor: string | null;
  /** The position Previous returns to. */
  back: PagePosition | null;
  /** The total the first page reported, and whether it is exact ("1,000+" when not). */
  total: { count: number; exact: boolean } | null;
}

export const FIRST_PAGE: PagePosition = { offset: 0, cursor: null, back: null, total: null };

/** The page fields of every admin list answer (`ListPage`, shared/api/admin-lists.ts). */
export interface ListPageData {
  total?: number;
  total_exact?: boolean;
  next_cursor: string | null;
  has_more: boolean;
}

export interface PagedList<T> extends AdminData<T> {
  /** Where the page on screen starts, and how many rows a page holds. */
  offset: number;
  limit: number;
  /** The list's total (from its first page) when known, and whether it is exact. */
  total: { count: number; exact: boolean } | null;
  hasPrevious: boolean;
  hasNext: boolean;
  next: () => void;
  previous: () => void;
  /** Back to the first page (a new filter or search). */
  reset: () => void;
}

/**
 * One page at a time of an admin list. `fetchPage` is an admin API function or the caller's
 * useCallback over its filters: a new one loads again. The list keeps its own position unless
 * the caller holds it (`paging`), as Users does so the page survives opening a user and coming
 * back.
 */
export function usePagedList<T extends ListPageData>(
  fetchPage: (page: Page) => Promise<T>,
  limit: number,
  paging?: readonly [position: PagePosition, setPosition: (position: PagePosition) => void],
): PagedList<T> {
  const own = useState<PagePosition>(FIRST_PAGE);
  const [position, setPosition] = paging ?? own;
  const { offset, cursor } = position;
  const load = useCallback(
    () => fetchPage({ offset, limit, cursor }),
    [fetchPage, offset, limit, cursor],
  );
  const state = useAdminData(load);
  const data = state.data;
  const total =
    data?.total !== undefined
      ? { count: data.total, exact: data.total_exact ?? true }
      : position.total;
  return {
    ...state,
    offset,
    limit,
    total,
    hasPrevious: position.back !== null,
    hasNext: data?.has_more ?? false,
    next: () => {
      if (!data?.has_more) return;
      setPosition({
        offset: offset + limit,
        // A list without cursors pages on by offset.
        cursor: data.next_cursor,
        back: position,
        total,
      });
    },
    previous: () => {
      if (position.back) setPosition(position.back);
    },
    reset: () => setPosition(FIRST_PAGE),
  };
}
