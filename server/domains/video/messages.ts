/**
 * What users read about a task (status_message while it runs, error_message when it failed).
 * Provider text never appears here: it goes to logs and the admin view (issue 17, item 5).
 */
import { VIDEO_COST, VIDEO_SECONDS } from '../../../shared/video.ts';

const refunded = `Your ${VIDEO_COST} credits have been refunded.`;

export const TASK_MESSAGES = {
  queued: 'Waiting in the queue',
  queuedAt: (position: number) => `Waiting in the queue (position ${position})`,
  busy: 'The video service is busy. Your video starts as soon as it has room; no need to resubmit.',
  providerQueue: (position: number | undefined) =>
    position === undefined
      ? 'Waiting for the video service to start'
      : `Waiting for the video service to start (position ${position + 1})`,
  generating: 'Generating video',
  retrying: 'The video service had a hiccup. Retrying shortly.',
  saving: 'Saving video',
  resuming: 'Resuming shortly',
} as const;

/** error_message of a failed task, by why it failed. Each says what happened and what to do. */
export const FAILURE_MESSAGES = {
  content_policy: `The video service's safety filter blocked this prompt or image. Change it and try again. ${refunded}`,
  provider: `The video service could not make this video. Please try again. ${refunded}`,
  unavailable: `The video service could not take your video right now. Please try again later. ${refunded}`,
  result: `The video service returned a video that failed our checks (it must play, last about ${VIDEO_SECONDS} seconds and have sound). Please try again. ${refunded}`,
  deadline: `Video generation did not finish in time and was stopped. ${refunded}`,
} as const;

export type FailureKind = keyof typeof FAILURE_MESSAGES | 'in_doubt' | 'rejected' | 'gone';

/** The message for a failure kind (kinds without their own text read as a provider failure). */
export const failureMessage = (kind: FailureKind): string =>
  kind in FAILURE_MESSAGES
    ? FAILURE_MESSAGES[kind as keyof typeof FAILURE_MESSAGES]
    : FAILURE_MESSAGES.provider;
