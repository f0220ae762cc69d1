/**
 * A video as the public API answers it (GET /v1/videos/{id}) and as video.* webhook events carry
 * it (issue 36). URLs are absolute on our origin; a failed video's error is the English text the
 * site stores (its code is the failure kind).
 */
import type { DbOrTx } from '../../core/db.ts';
import { recordEvent } from '../../core/webhook-outbox.ts';
import type { VideoTaskRow } from '../../db/schema.ts';
import type { ApiVideo, WebhookEventType } from '../../../shared/public-api.ts';
import { toOptionsData } from '../../../shared/video-options.ts';
import { taskOptions } from './submit.ts';

const absolute = (origin: string, url: string | null) =>
  url === null ? null : /^https?:\/\//.test(url) ? url : `${origin}${url}`;

export function toApiVideo(row: VideoTaskRow, origin: string): ApiVideo {
  const deleted = row.deletedAt !== null;
  return {
    id: row.id,
    object: 'video',
    status: row.status,
    mode: row.mode,
    model: row.model,
    prompt: deleted ? null : row.prompt,
    options: toOptionsData(taskOptions(row)),
    duration_seconds: row.durationSeconds,
    credits_charged: row.creditsCharged,
    extends_video_id: row.sourceTaskId,
    progress: row.progress,
    result_url: deleted ? null : absolute(origin, row.resultUrl),
    poster_url: deleted ? null : absolute(origin, row.posterUrl),
    error:
      row.status === 'failed'
        ? { code: row.failureKind ?? 'failed', message: row.errorMessage ?? '' }
        : null,
    metadata: row.metadata ?? {},
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    deleted,
  };
}

/**
 * Writes a video.* event for `row` to the outbox, in `tx` (the transaction that changed it):
 * to the user's endpoints that take it and to the request's own webhook_url.
 */
export async function recordVideoEvent(
  tx: DbOrTx,
  type: Extract<WebhookEventType, `video.${string}`>,
  row: VideoTaskRow,
  origin: string,
): Promise<void> {
  await recordEvent(tx, {
    userId: row.userId,
    type,
    data: toApiVideo(row, origin),
    requestUrl: row.webhookUrl,
  });
}
