/**
 * Where publishing stands: 'Live' once the static site carries the latest changes, else
 * 'Publishing…'. Polled every 2 s while not live, and again after each save or delete.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BuildStatus } from '../../../shared/api/blog.ts';
import { getBuildStatus } from '../../lib/api/blog.ts';

const PUBLISH_POLL_MS = 2000;
/** After a change the server may answer 'live' once more before it queues the build. */
const GRACE_POLLS = 5;
/** Stop after this many failed polls in a row; the next save or delete starts again. */
const MAX_FAILED_POLLS = 3;

/**
 * Poll the build status once `enabled` (access confirmed); `watch()` after a change keeps
 * polling until the change is live.
 */
export function usePublishStatus(enabled: boolean): {
  status: BuildStatus | null;
  watch: () => void;
} {
  const [status, setStatus] = useState<BuildStatus | null>(null);
  const [round, setRound] = useState(0);
  const changedAt = useRef<number | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let graceLeft = GRACE_POLLS;
    let failures = 0;
    let sawPublishing = false;

    const poll = async () => {
      let next: BuildStatus;
      try {
        next = await getBuildStatus();
      } catch (error) {
        console.error('[blog-admin] build status failed', error);
        failures += 1;
        if (!stopped && failures < MAX_FAILED_POLLS) timer = setTimeout(poll, PUBLISH_POLL_MS);
        return;
      }
      if (stopped) return;
      failures = 0;
      setStatus(next);
      if (next.state !== 'live') {
        sawPublishing = true;
        timer = setTimeout(poll, PUBLISH_POLL_MS);
        return;
      }
      const since = changedAt.current;
      const finished = next.finishedAt ? Date.parse(next.finishedAt) : Number.NaN;
      const coversChange = since === null || sawPublishing || finished >= since;
      if (!coversChange && graceLeft > 0) {
        graceLeft -= 1;
        timer = setTimeout(poll, PUBLISH_POLL_MS);
        return;
      }
      changedAt.current = null;
    };

    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [enabled, round]);

  const watch = useCallback(() => {
    changedAt.current = Date.now();
    setRound((value) => value + 1);
  }, []);

  return { status, watch };
}

export default function PublishStatus({ status }: { status: BuildStatus | null }) {
  const live = status?.state === 'live';
  return (
    <p
      className={`publish-status${status ? (live ? ' is-live' : ' is-publishing') : ''}`}
      data-testid="publish-status"
      role="status"
    >
      {status && (
        <>
          <span className="publish-status__dot" aria-hidden="true" />
          <span>{live ? 'Live' : 'Publishing…'}</span>
        </>
      )}
    </p>
  );
}
