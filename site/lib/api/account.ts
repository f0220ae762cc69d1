/**
 * The account calls (issue 34): a copy of the signed-in user's data, and closing the account.
 * Both need the bearer token, so the export is fetched here and saved by the page, not linked.
 */
import type { CloseAccountRequest } from '../../../shared/api/account.ts';
import type { MessageResponse } from '../../../shared/api/common.ts';
import { api } from './http.ts';

/** GET /api/account/export: the JSON file and the name the server gives it. */
export async function getAccountExport(): Promise<{ blob: Blob; fileName: string }> {
  const response = await api.get('/api/account/export');
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'account-data.json';
  return { blob: await response.blob(), fileName };
}

/**
 * DELETE /api/account, with the password for an account that has one. Never retried: after a
 * lost answer the account may be closed, and the repeat could only be refused.
 */
export async function closeAccount(password: string | null): Promise<MessageResponse> {
  const body: CloseAccountRequest = password ? { confirm: true, password } : { confirm: true };
  return api.delete('/api/account', { json: body, retry: 0 }).json<MessageResponse>();
}
