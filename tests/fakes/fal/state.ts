/**
 * What one running fal fake keeps: its jobs, pending submit failures and stalls, the webhook
 * signing keys, and the rules that move a job through IN_QUEUE → IN_PROGRESS → COMPLETED.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { FakeJob, SubmitFailure } from '../video/control.ts';
import type { FakeVideoShape } from '../video/shape.ts';
import type { FalFake } from './types.ts';
import type { FalDetail } from './request-body.ts';

/** The current Veo 3.1 endpoints (fal-js endpoint types, 2026-08-02); everything else is 404. */
export const VEO_ENDPOINTS = new Set([
  'fal-ai/veo3.1',
  'fal-ai/veo3.1/image-to-video',
  'fal-ai/veo3.1/first-last-frame-to-video',
  'fal-ai/veo3.1/reference-to-video',
  'fal-ai/veo3.1/extend-video',
  'fal-ai/veo3.1/fast',
  'fal-ai/veo3.1/fast/image-to-video',
  'fal-ai/veo3.1/fast/first-last-frame-to-video',
  'fal-ai/veo3.1/fast/extend-video',
  'fal-ai/veo3.1/lite',
  'fal-ai/veo3.1/lite/image-to-video',
  'fal-ai/veo3.1/lite/first-last-frame-to-video',
]);

export type Outcome = 'success' | 'policy' | 'fail' | 'hang';

export interface Job {
  /** The part tests see (fake.jobs). */
  view: FakeJob;
  /** `owner/alias`: where fal serves the request's status, result and cancel. */
  app: string;
  outcome: Outcome;
  /** Input problems fal's validation finds when the job runs (its result is then a 422). */
  problems: FalDetail[];
  /** The prompt as sent, for the content-policy error's `input`. */
  prompt: string;
  /** The video the job makes: the shape and length its input asked for. */
  shape: FakeVideoShape;
}

export interface FalState {
  fake: FalFake;
  now: () => number;
  jobs: Map<string, Job>;
  /** CDN file id → request id. */
  files: Map<string, string>;
  submitFailures: SubmitFailure[];
  stalls: number;
  /** Signs webhooks; `decoy` is listed in the JWKS too but never signs (verifiers try every key). */
  signingKey: { privateKey: KeyObject; publicKey: KeyObject };
  decoyKey: KeyObject;
  userId: string;
}

export const newKeyPair = () => generateKeyPairSync('ed25519');

export function outcomeOf(prompt: string): Outcome {
  if (prompt.includes('[policy]')) return 'policy';
  if (prompt.includes('[fail]')) return 'fail';
  if (prompt.includes('[hang]')) return 'hang';
  return 'success';
}

export type Phase =
  | { status: 'IN_QUEUE'; queue_position: number }
  | { status: 'IN_PROGRESS' }
  | { status: 'COMPLETED' };

/**
 * Where a job is after its status checks so far: the first half of the checks before it finishes
 * are spent in the queue (positions counting down to 0), the rest in progress, and the
 * `pollsUntilDone`-th check sees it COMPLETED (never, for `[hang]`).
 */
export function phaseOf(state: FalState, job: Job): Phase {
  const needed = Math.max(1, state.fake.pollsUntilDone);
  const polls = job.view.polls;
  if (job.outcome !== 'hang' && polls >= needed) return { status: 'COMPLETED' };
  const queued = Math.ceil((needed - 1) / 2);
  if (polls <= queued) return { status: 'IN_QUEUE', queue_position: queued - polls };
  return { status: 'IN_PROGRESS' };
}
