/**
 * The video calls (spec 7 "video calls"): submit a generation, read a task's status, list the
 * history, delete a video (issue 34), price a choice of options (issue 35). Generation and status requests also name the user (spec 6) next to the bearer token.
 */
import type { PublicUser } from '../../../shared/api/auth.ts';
import type {
  GenerateResponse,
  HistoryResponse,
  QuoteResponse,
  TaskStatusResponse,
} from '../../../shared/api/video.ts';
import { api, REQUEST_TIMEOUT_MS } from './http.ts';

/** Spec 6: generation and status requests name the user (the api client adds the bearer token). */
function identityHeaders(user: PublicUser): Record<string, string> {
  const headers: Record<string, string> = { 'x-user-id': user.id };
  // Header values must be Latin-1; an address outside it is left to the bearer token.
  if (/^[\x20-\x7e]+$/.test(user.email)) headers['x-user-email'] = user.email;
  return headers;
}

/** POST /api/video/generate. Never retried: a repeated POST could charge twice. */
export async function requestGeneration(
  form: FormData,
  user: PublicUser,
): Promise<GenerateResponse> {
  return api
    .post('/api/video/generate', {
      body: form,
      headers: identityHeaders(user),
      retry: 0,
      timeout: REQUEST_TIMEOUT_MS,
    })
    .json<GenerateResponse>();
}

/** One status request per poll: the poll loop is the retry (5 s later). */
export async function getTaskStatus(taskId: string, user: PublicUser): Promise<TaskStatusResponse> {
  return api
    .get(`/api/video/status/${encodeURIComponent(taskId)}`, {
      headers: identityHeaders(user),
      retry: 0,
    })
    .json<TaskStatusResponse>();
}

/** One page of the signed-in user's completed videos, newest first. */
export async function getHistory(page: number, limit: number): Promise<HistoryResponse> {
  return api.get('/api/video/history', { searchParams: { page, limit } }).json<HistoryResponse>();
}

/** The page after a previous page's `next_cursor` (past the numbered pages). */
export async function getHistoryAfter(cursor: string, limit: number): Promise<HistoryResponse> {
  return api.get('/api/video/history', { searchParams: { cursor, limit } }).json<HistoryResponse>();
}

/** DELETE /api/video/{taskId}: the video leaves history and the store (204; 404 once gone). */
export async function deleteVideo(taskId: string): Promise<void> {
  await api.delete(`/api/video/${encodeURIComponent(taskId)}`);
}

/**
 * GET /api/video/quote (issue 35): what a request with these fields (`query`, as the generate
 * form names them) would cost, or a 400 naming the option no configured service can do.
 */
export async function getQuote(query: string, signal?: AbortSignal): Promise<QuoteResponse> {
  return api
    .get('/api/video/quote', { searchParams: query, retry: 0, signal })
    .json<QuoteResponse>();
}
