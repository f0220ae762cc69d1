/**
 * Loads one list of /account/api and keeps it: `reload()` fetches again after a change while the
 * last answer stays on screen, so the list does not jump. A failed load keeps its message for
 * the section to show beside a retry.
 */
import { useCallback, useEffect, useState } from 'react';

interface Loaded<T> {
  data: T | null;
  /** Set when the latest load failed. */
  failed: unknown;
  reload: () => void;
}

export function useLoad<T>(load: () => Promise<T>): Loaded<T> {
  const [attempt, setAttempt] = useState(0);
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState<unknown>(null);

  useEffect(() => {
    let active = true;
    load().then(
      (answer) => {
        if (!active) return;
        setData(answer);
        setFailed(null);
      },
      (error: unknown) => {
        if (!active) return;
        console.error('[account-api] load failed', error);
        setFailed(error ?? new Error('load failed'));
      },
    );
    return () => {
      active = false;
    };
  }, [load, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { data, failed, reload };
}
