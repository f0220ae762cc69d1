/**
 * Loads one admin list or record. A new `load` (the caller's useCallback, so a new query or page)
 * or `reload()` fetches again; the last good data stays on screen meanwhile so tables do not jump.
 */
import { useCallback, useEffect, useState } from 'react';
import { apiErrorMessage } from '../../lib/api.ts';

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
