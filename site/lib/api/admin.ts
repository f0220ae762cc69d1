/**
 * The admin dashboard's calls (issue 7; spec 7 admin calls). It carries the admin's own session token
 * from sessionStorage, never the user's `authToken`: signing in at /admin must not sign anyone in
 * as a user, and closing the tab ends the admin's access on this device.
 * Types only from the contracts: importing their values would pull TypeBox into the bundle.
 */
import { isHTTPError } from 'ky';
import type {
  AdjustCreditsBody,
  AdjustCreditsResponse,
  AdminIdentity,
  AdminLoginResponse,
  AdminMeResponse,
  AdminTaskStatus,
  AdminTestResponse,
  BlogAccessResponse,
  OverviewResponse,
  RefundResponse,
  UserDetailResponse,
} from '../../../shared/api/admin.ts';
import type {
  ActionsResponse,
  PaymentsResponse,
  TasksResponse,
  UsersResponse,
  UserTransactionsResponse,
  WebhooksResponse,
} from '../../../shared/api/admin-lists.ts';
import type { DailyStatsResponse } from '../../../shared/api/admin-stats.ts';
import type { MarginStatsResponse } from '../../../shared/api/admin-margin.ts';
import type { EmailPreview, EmailPreviewsResponse } from '../../../shared/api/email-previews.ts';
import { ADMIN_TOKEN_STORAGE_KEY } from '../../../shared/admin.ts';
import type { ApiKeyList } from '../../../shared/public-api.ts';
import { api } from './http.ts';
/** What the dashboard says when any admin call answers 401. */
export const SESSION_ENDED = 'Your admin session ended. Please sign in again.';

const LOGIN_PATH = '/api/auth/admin-login';
const LOGOUT_PATH = '/api/auth/admin-logout';

// sessionStorage can throw (blocked storage); a failure there simply means "no admin session".
export function readAdminToken(): string | null {
  try {
    return window.sessionStorage.getItem(ADMIN_TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeAdminToken(token: string): void {
  try {
    window.sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, token);
  } catch (error) {
    console.error('[admin] could not keep the admin session', error);
  }
}

function clearAdminToken(): void {
  try {
    window.sessionStorage.removeItem(ADMIN_TOKEN_STORAGE_KEY);
  } catch {
    // Nothing stored that we could remove.
  }
}

const sessionEndedListeners = new Set<() => void>();

/** Called whenever an admin call answers 401; returns the unsubscribe function. */
export function onAdminSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => {
    sessionEndedListeners.delete(listener);
  };
}

/**
 * The site's client with the admin token in place of the user's: `api`'s own hook runs first and
 * may set the user's bearer token, which this one replaces (or removes when there is no admin).
 */
export const adminHttp = api.extend({
  hooks: {
    beforeRequest: [
      ({ request }) => {
        const token = readAdminToken();
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
        else request.headers.delete('Authorization');
      },
    ],
    beforeError: [
      ({ request, error }) => {
        const path = new URL(request.url).pathname;
        // A 401 from the sign-in form is a wrong password, not an ended session.
        if (isHTTPError(error) && error.response.status === 401 && path !== LOGIN_PATH) {
          clearAdminToken();
          for (const listener of sessionEndedListeners) listener();
        }
        return error;
      },
    ],
  },
});

/** The `data` of a `{ success: true, data }` answer, or an error naming what was expected. */
function dataOf<T>(body: { success: boolean; data: T } | undefined, what: string): T {
  if (!body?.success || body.data === undefined) throw new Error(`Unexpected ${what} answer`);
  return body.data;
}

/** The server's own words for a successful change (`message`), when it sends one. */
function messageOf(body: { message?: string } | undefined): string {
  return typeof body?.message === 'string' ? body.message : '';
}

/**
 * Where a page of an admin list starts: `offset` rows in (the server serves offsets up to
 * 1,000), or after a previous page's `next_cursor` (any depth). The server caps `limit` at 100.
 */
export interface Page {
  offset: number;
  limit: number;
  cursor?: string | null;
}

/** A page's query parameters: the cursor when there is one, else the offset. */
function pageParams(page: Page): Record<string, string | number> {
  return page.cursor
    ? { limit: page.limit, cursor: page.cursor }
    : { limit: page.limit, offset: page.offset };
}

export type Overview = OverviewResponse['data'];
export type UserDetail = UserDetailResponse['data'];
export type SystemCheck = AdminTestResponse['data'];
export type DailyStats = DailyStatsResponse['data'];
export type MarginStats = MarginStatsResponse['data'];

/** Signs in and keeps the token for this tab; the server's message is in the thrown HTTP error. */
export async function signInAdmin(username: string, password: string): Promise<AdminIdentity> {
  const body = await adminHttp
    .post(LOGIN_PATH, { json: { username, password }, retry: 0 })
    .json<AdminLoginResponse>();
  const data = dataOf(body, 'sign-in');
  storeAdminToken(data.token);
  return data.admin;
}

/** Ends the session on the server; the local token goes whatever the server answers. */
export async function signOutAdmin(): Promise<void> {
  try {
    if (readAdminToken()) await adminHttp.post(LOGOUT_PATH, { retry: 0 });
  } catch (error) {
    console.error('[admin] sign-out request failed; the local session is cleared anyway', error);
  } finally {
    clearAdminToken();
  }
}

export async function getAdminIdentity(): Promise<AdminIdentity> {
  return dataOf(await adminHttp.get('/api/admin/me').json<AdminMeResponse>(), 'session');
}

/** The overview; its counts are cached 30 s on the server unless `fresh` (the Refresh button). */
export async function getOverview(fresh = false): Promise<Overview> {
  const body = await adminHttp
    .get('/api/admin/overview', { searchParams: fresh ? { fresh } : {} })
    .json<OverviewResponse>();
  return dataOf(body, 'overview');
}

/** `GET /api/admin/stats/daily`: the overview's charts, one entry per UTC day, today last. */
export async function getDailyStats(days: number, fresh = false): Promise<DailyStats> {
  const body = await adminHttp
    .get('/api/admin/stats/daily', { searchParams: fresh ? { days, fresh } : { days } })
    .json<DailyStatsResponse>();
  return dataOf(body, 'daily figures');
}

/** `GET /api/admin/stats/margin` (issue 37): revenue, provider cost and margin per day and model. */
export async function getMarginStats(days: number, fresh = false): Promise<MarginStats> {
  const body = await adminHttp
    .get('/api/admin/stats/margin', { searchParams: fresh ? { days, fresh } : { days } })
    .json<MarginStatsResponse>();
  return dataOf(body, 'margin figures');
}

/** `GET /api/admin/email-previews` (issue 37): each receipt email in each language, sample data. */
export async function getEmailPreviews(): Promise<EmailPreview[]> {
  const body = await adminHttp.get('/api/admin/email-previews').json<EmailPreviewsResponse>();
  return dataOf(body, 'email previews').previews;
}

/** `GET /api/admin/test`: checks each subsystem now (database, media store, providers). */
export async function runSystemCheck(): Promise<SystemCheck> {
  const body = await adminHttp.get('/api/admin/test', { retry: 0 }).json<AdminTestResponse>();
  return dataOf(body, 'system check');
}

export async function listUsers(query: string, page: Page): Promise<UsersResponse['data']> {
  const q = query.trim();
  const body = await adminHttp
    .get('/api/admin/users', { searchParams: { ...(q ? { q } : {}), ...pageParams(page) } })
    .json<UsersResponse>();
  return dataOf(body, 'user list');
}

export async function getUserDetail(id: string): Promise<UserDetail> {
  const body = await adminHttp
    .get(`/api/admin/users/${encodeURIComponent(id)}`)
    .json<UserDetailResponse>();
  return dataOf(body, 'user');
}

export async function listUserTransactions(
  id: string,
  page: Page,
): Promise<UserTransactionsResponse['data']> {
  const body = await adminHttp
    .get(`/api/admin/users/${encodeURIComponent(id)}/transactions`, {
      searchParams: pageParams(page),
    })
    .json<UserTransactionsResponse>();
  return dataOf(body, 'ledger');
}

/** `GET /api/admin/users/{id}/api-keys`: the user's API keys, revoked ones included. */
export async function listUserApiKeys(id: string): Promise<ApiKeyList> {
  const body = await adminHttp
    .get(`/api/admin/users/${encodeURIComponent(id)}/api-keys`)
    .json<{ success: boolean; data: ApiKeyList }>();
  return dataOf(body, 'API key list');
}

export async function listTasks(
  status: AdminTaskStatus | null,
  page: Page,
): Promise<TasksResponse['data']> {
  const body = await adminHttp
    .get('/api/admin/tasks', {
      searchParams: { ...(status ? { status } : {}), ...pageParams(page) },
    })
    .json<TasksResponse>();
  return dataOf(body, 'task list');
}

export async function listPayments(page: Page): Promise<PaymentsResponse['data']> {
  const body = await adminHttp
    .get('/api/admin/payments', { searchParams: pageParams(page) })
    .json<PaymentsResponse>();
  return dataOf(body, 'payment list');
}

export async function listWebhookEvents(page: Page): Promise<WebhooksResponse['data']> {
  const body = await adminHttp
    .get('/api/admin/webhooks', { searchParams: pageParams(page) })
    .json<WebhooksResponse>();
  return dataOf(body, 'webhook list');
}

export async function listAdminActions(page: Page): Promise<ActionsResponse['data']> {
  const body = await adminHttp
    .get('/api/admin/actions', { searchParams: pageParams(page) })
    .json<ActionsResponse>();
  return dataOf(body, 'audit log');
}

// Changes are never retried: a repeated credit adjustment would move credits twice.

export async function adjustCredits(
  userId: string,
  input: AdjustCreditsBody,
): Promise<AdjustCreditsResponse['data'] & { message: string }> {
  const body = await adminHttp
    .post(`/api/admin/users/${encodeURIComponent(userId)}/credits`, { json: input, retry: 0 })
    .json<AdjustCreditsResponse>();
  return { ...dataOf(body, 'credit adjustment'), message: messageOf(body) };
}

export async function setBlogAccess(
  userId: string,
  canManageBlog: boolean,
): Promise<BlogAccessResponse['data'] & { message: string }> {
  const body = await adminHttp
    .post(`/api/admin/users/${encodeURIComponent(userId)}/blog-access`, {
      json: { canManageBlog },
      retry: 0,
    })
    .json<BlogAccessResponse>();
  return { ...dataOf(body, 'blog access'), message: messageOf(body) };
}

export async function refundTask(
  taskId: string,
): Promise<RefundResponse['data'] & { message: string }> {
  const body = await adminHttp
    .post(`/api/admin/tasks/${encodeURIComponent(taskId)}/refund`, { retry: 0 })
    .json<RefundResponse>();
  return { ...dataOf(body, 'refund'), message: messageOf(body) };
}

/** `DELETE /api/admin/api-keys/{id}`: the key stops working at once (204, no body). */
export async function revokeUserApiKey(keyId: string): Promise<void> {
  await adminHttp.delete(`/api/admin/api-keys/${encodeURIComponent(keyId)}`, { retry: 0 });
}
