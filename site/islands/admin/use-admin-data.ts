/**
 * Loads one admin list or record. A new `load` (the caller's useCallback, so a new query or page)
 * or `reload()` fetches again; the last good data stays on screen meanwhile so tables do not jump.
 */
import { useCallback, useEffect, useState } from 'react';
import type { Page } from '../../lib/api/admin.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';

export const LOAD_FAILED = 'Could not load this from the server. Check the connection and retry.';

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

export interface PagedList<T> extends AdminData<T> {
  /** Where the page on screen starts, and how many rows a page holds. */
  offset: number;
  limit: number;
  setOffset: (offset: number) => void;
}

/**
 * One page at a time of an admin list. `fetchPage` is an admin API function or the caller's
 * useCallback over its filters: a new one loads again. The list keeps its own offset unless the
 * caller holds it (`paging`), as Users does so the page survives opening a user and coming back.
 */
export function usePagedList<T>(
  fetchPage: (page: Page) => Promise<T>,
  limit: number,
  paging?: readonly [offset: number, setOffset: (offset: number) => void],
): PagedList<T> {
  const own = useState(0);
  const [offset, setOffset] = paging ?? own;
  const load = useCallback(() => fetchPage({ offset, limit }), [fetchPage, offset, limit]);
  return { ...useAdminData(load), offset, limit, setOffset };
}
