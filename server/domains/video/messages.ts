/**
 * What users read about a task (status_message while it runs, error_message when it failed), as
 * catalogue keys (messages/api): stored on the task as key and parameters (status_text,
 * error_text) and shown in the reader's language. Provider text never appears here: it goes to
 * logs and the admin view (issue 17, item 5).
 */
import { VIDEO_SECONDS } from '../../../shared/video.ts';
import { ApiText, msg, type MessageKey } from '../../core/api-messages.ts';
import type { StoredText } from '../../db/schema.ts';

export const TASK_MESSAGES = {
  queued: msg('task.queued'),
  queuedAt: (position: number) => msg('task.queued_at', { position }),
  busy: msg('task.busy'),
  busyQueuedAt: (position: number) => msg('task.busy_queued_at', { position }),
  providerQueue: (position: number | undefined) =>
    position === undefined
      ? msg('task.provider_queue')
      : msg('task.provider_queue_at', { position: position + 1 }),
  generating: msg('task.generating'),
  retrying: msg('task.retrying'),
  saving: msg('task.saving'),
  resuming: msg('task.resuming'),
  ready: msg('task.ready'),
  failed: msg('task.failed'),
} as const;

/** error_message of a failed task, by why it failed; `credits` is what the refund returned. */
const FAILURE_MESSAGES = {
  content_policy: (credits: number) => msg('task.failure.content_policy', { credits }),
  provider: (credits: number) => msg('task.failure.provider', { credits }),
  unavailable: (credits: number) => msg('task.failure.unavailable', { credits }),
  result: (credits: number) => msg('task.failure.result', { seconds: VIDEO_SECONDS, credits }),
  deadline: (credits: number) => msg('task.failure.deadline', { credits }),
} as const;

export type FailureKind = keyof typeof FAILURE_MESSAGES | 'in_doubt' | 'rejected' | 'gone';

/**
 * The message for a failure kind, given the credits refunded (kinds without their own text read
 * as a provider failure). Each says what happened and what to do.
 */
export const failureMessage =
  (kind: FailureKind) =>
  (credits: number): ApiText =>
    (kind in FAILURE_MESSAGES
      ? FAILURE_MESSAGES[kind as keyof typeof FAILURE_MESSAGES]
      : FAILURE_MESSAGES.provider)(credits);

/** A message as a task row stores it (its English goes to the text column beside). */
export const storedText = (text: ApiText): StoredText => ({
  key: text.key,
  params: text.params as Record<string, string | number>,
});

/** A stored message back as one to render; a row from before keys (null) shows its text. */
export const fromStored = (stored: StoredText | null, english: string | null) =>
  stored ? new ApiText(stored.key as MessageKey, stored.params) : english;
