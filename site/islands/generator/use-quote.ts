/**
 * Whether the chosen options can be made (issue 35): the generator asks `GET /api/video/quote`
 * a moment after the choice settles, and shows a refusal (a 400 whose message names the option,
 * in the page's language) beside the button, which stays disabled while it stands.
 */
import { useEffect, useState } from 'react';
import { httpStatus, readApiError } from '../../lib/api/http.ts';
import { getQuote } from '../../lib/api/video.ts';
import { TEXT_MODEL } from '../../../shared/video.ts';

/** Wait this long after the last change before asking (typing a seed or a negative prompt). */
const QUOTE_DELAY_MS = 350;

export type QuoteState =
  /** Nothing to ask: the default clip. */
  | { status: 'none' }
  | { status: 'checking' }
  | { status: 'ok'; credits: number }
  | { status: 'refused'; message: string }
  /** The question could not be asked (offline, a 5xx): the generate request will tell. */
  | { status: 'unknown' };

type Answer = Exclude<QuoteState, { status: 'none' } | { status: 'checking' }>;

/** Answers by query, for this page: switching back to a choice does not ask again. */
const answers = new Map<string, Answer>();

async function ask(query: string, signal: AbortSignal): Promise<Answer | null> {
  try {
    const body = await getQuote(query, signal);
    return body?.success && typeof body.data?.credits === 'number'
      ? { status: 'ok', credits: body.data.credits }
      : { status: 'unknown' };
  } catch (error) {
    if (signal.aborted) return null;
    const message = readApiError(error)?.message;
    return httpStatus(error) === 400 && message
      ? { status: 'refused', message }
      : { status: 'unknown' };
  }
}

/** The quote of `query` (null: the default clip, nothing to ask). */
export function useQuote(query: string | null): QuoteState {
  const [answer, setAnswer] = useState<{ query: string; state: Answer } | null>(null);

  useEffect(() => {
    if (query === null || answers.has(query)) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      void ask(query, controller.signal).then((state) => {
        if (!state) return;
        if (state.status !== 'unknown') answers.set(query, state);
        setAnswer({ query, state });
      });
    }, QUOTE_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  if (query === null) return { status: 'none' };
  const known = answers.get(query);
  if (known) return known;
  return answer?.query === query ? answer.state : { status: 'checking' };
}

/** Whether videos of a shape can be extended here, by shape: one question per page. */
const extendable = new Map<string, Promise<boolean>>();

/**
 * Whether "Extend by 7 s" is offered for a finished video (issue 35, item 3): only where a route
 * entry can extend a video of its shape and resolution. The quote answers that without a session
 * (it prices the extension from the fields and does not look the video up). Until it answers, or
 * when it cannot be asked, the action is offered and the generate request tells.
 */
export function useCanExtend(
  taskId: string,
  options: { aspect_ratio?: string; resolution?: string } | null | undefined,
): boolean {
  const shape = new URLSearchParams({
    model: TEXT_MODEL,
    aspect_ratio: options?.aspect_ratio ?? '16:9',
    resolution: options?.resolution ?? '720p',
  }).toString();
  const [known, setKnown] = useState<{ shape: string; can: boolean } | null>(null);
  useEffect(() => {
    let asked = extendable.get(shape);
    if (!asked) {
      const controller = new AbortController();
      asked = ask(`${shape}&extend_task_id=${encodeURIComponent(taskId)}`, controller.signal).then(
        (answer) => answer?.status !== 'refused',
      );
      extendable.set(shape, asked);
    }
    let live = true;
    void asked.then((can) => live && setKnown({ shape, can }));
    return () => {
      live = false;
    };
  }, [shape, taskId]);
  return known?.shape === shape ? known.can : true;
}
