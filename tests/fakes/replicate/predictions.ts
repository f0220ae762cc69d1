/**
 * Predictions in the Replicate fake: their life (starting → processing → a terminal status,
 * driven by status checks and the prompt's marker), Cancel-After deadlines and the one-hour
 * output retention on the fake's clock, and the prediction object as Replicate's API shows it
 * (OpenAPI `schemas_prediction_response`).
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { FakeState, Job, Outcome, Status } from './types.ts';

/** Replicate's own safety filter text on Veo and other models. */
export const POLICY_ERROR =
  'The input or output was flagged as sensitive. Please try again with different inputs. (E005)';
export const FAIL_ERROR =
  'Prediction failed: the video generation backend returned an internal error. (E1000)';
/** API predictions lose their outputs (and files) after an hour. */
export const RETENTION_MS = 60 * 60_000;

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A prediction id in Replicate's form: 26 lowercase letters and digits. */
export const predictionId = () =>
  Array.from({ length: 26 }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('');

export const outcomeOf = (prompt: string): Outcome =>
  prompt.includes('[policy]')
    ? 'policy'
    : prompt.includes('[fail]')
      ? 'fail'
      : prompt.includes('[hang]')
        ? 'hang'
        : 'success';

export const isTerminal = (status: Status) => status !== 'starting' && status !== 'processing';

/** Cancel-After as milliseconds (`90`, `90s`, `5m`, `1h30m45s`), or null when unreadable. */
export function parseCancelAfter(value: string): number | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!match || text === '') return null;
  const [, h = '0', m = '0', s = '0'] = match;
  return (Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000;
}

/** Changes that come with time: a passed deadline, an output older than an hour. */
export function refresh(state: FakeState, job: Job): void {
  const now = state.now();
  if (!isTerminal(job.status) && job.deadline !== undefined && now >= job.deadline) {
    // Replicate: `aborted` (not billed) before the prediction started, `canceled` after.
    job.status = job.status === 'starting' ? 'aborted' : 'canceled';
    job.completedAt = now;
  }
  if (job.completedAt !== undefined && job.output && now >= job.completedAt + RETENTION_MS) {
    job.output = null;
    job.dataRemoved = true;
  }
}

function start(state: FakeState, job: Job): void {
  if (job.status !== 'starting') return;
  job.status = 'processing';
  job.startedAt = state.now();
}

/** Ends a job as its prompt asked; a `[hang]` job never ends. */
export function finish(state: FakeState, job: Job): void {
  if (isTerminal(job.status) || job.outcome === 'hang') return;
  start(state, job);
  job.completedAt = state.now();
  if (job.outcome === 'success') {
    const path = `/xezq/${randomBytes(18).toString('base64url')}/tmp${randomBytes(4).toString('hex')}.mp4`;
    state.files.set(path, job);
    job.output = `${state.fake.deliveryUrl}${path}`;
    job.status = 'succeeded';
  } else {
    job.status = 'failed';
    job.error = job.outcome === 'policy' ? POLICY_ERROR : FAIL_ERROR;
  }
}

/**
 * One status check (a GET): the first `pollsUntilDone - 2` see `starting`, the next one
 * `processing`, and check number `pollsUntilDone` sees the end (`[hang]`: `processing` forever).
 */
export function statusCheck(state: FakeState, job: Job): void {
  job.polls += 1;
  refresh(state, job);
  if (isTerminal(job.status)) return;
  const until = state.fake.pollsUntilDone;
  if (job.outcome !== 'hang' && job.polls >= until) finish(state, job);
  else if (job.polls >= until - 1) start(state, job);
}

/** `POST /predictions/{id}/cancel`: stops a running job; a finished one stays as it is. */
export function cancel(state: FakeState, job: Job): void {
  refresh(state, job);
  if (isTerminal(job.status)) return;
  job.status = 'canceled';
  job.canceled = true;
  job.completedAt = state.now();
}

const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (from: number | undefined, to: number | undefined) =>
  from === undefined || to === undefined ? undefined : (to - from) / 1000;

/** The prediction object, as create, get, cancel and webhooks show it. */
export function predictionJson(state: FakeState, job: Job): Record<string, unknown> {
  const base = `${state.fake.url}/predictions/${job.requestId}`;
  return {
    id: job.requestId,
    model: job.model,
    version: job.version,
    input: job.input,
    logs: job.startedAt === undefined ? '' : 'Generating video...\n',
    output: job.output,
    data_removed: job.dataRemoved,
    error: job.error,
    status: job.status,
    source: 'api',
    created_at: iso(job.createdAt),
    ...(job.startedAt === undefined ? {} : { started_at: iso(job.startedAt) }),
    ...(job.completedAt === undefined ? {} : { completed_at: iso(job.completedAt) }),
    ...(job.deadline === undefined ? {} : { deadline: iso(job.deadline) }),
    urls: {
      cancel: `${base}/cancel`,
      get: base,
      stream: `https://stream.replicate.com/v1/files/${job.requestId}`,
      web: `https://replicate.com/p/${job.requestId}`,
    },
    // Times only: Replicate reports no price per prediction.
    metrics:
      job.status === 'succeeded'
        ? {
            predict_time: seconds(job.startedAt, job.completedAt),
            total_time: seconds(job.createdAt, job.completedAt),
          }
        : {},
    ...(job.webhookUrl
      ? {
          webhook: job.webhookUrl,
          webhook_events_filter: job.webhookEventsFilter ?? [
            'start',
            'output',
            'logs',
            'completed',
          ],
        }
      : {}),
  };
}
