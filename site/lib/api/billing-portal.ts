/**
 * "Manage billing" and the billing page's calls (issue 37, item 2): the portal's address, whether
 * there is any billing history, a page of payments, and a receipt's HTML (the receipt needs the
 * session's token, so it is fetched here, not opened as a plain link).
 */
import type {
  BillingPaymentsPage,
  BillingSummary,
  PortalResponse,
} from '../../../shared/api/billing-portal.ts';
import { api } from './http.ts';

/** Where "Manage billing" goes: Stripe's customer portal, or the local billing page. */
export async function openBillingPortal(returnPath: string): Promise<PortalResponse['data']> {
  const body = await api
    .post('/api/stripe/portal', { json: { return_url: returnPath }, retry: 0 })
    .json<PortalResponse>();
  return body.data;
}

export async function getBillingSummary(): Promise<BillingSummary['data']> {
  return (await api.get('/api/account/billing').json<BillingSummary>()).data;
}

/** One page of payments, newest first; `cursor` is the previous page's next_cursor. */
export async function getPayments(cursor: string | null): Promise<BillingPaymentsPage['data']> {
  const searchParams = cursor ? { cursor } : undefined;
  return (await api.get('/api/account/payments', { searchParams }).json<BillingPaymentsPage>())
    .data;
}

/** A receipt as the HTML document it was mailed as. */
export async function getReceiptHtml(receiptUrl: string): Promise<string> {
  return api.get(receiptUrl).text();
}
