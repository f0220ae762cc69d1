/**
 * The admin lists' answers (issue 19): users, tasks, payments, webhook events, the audit log and
 * a customer's ledger. Every list is newest first by (time, id) and pages two ways: `offset` for
 * the shallow pages or `cursor`, a previous page's `next_cursor`. The schemas and the paging
 * rules are in server/contracts/admin-lists.ts; the rows are in ./admin.ts.
 */
import type {
  AdminAction,
  AdminPayment,
  AdminTask,
  AdminTransaction,
  AdminUser,
  AdminWebhookEvent,
} from './admin.ts';
import type { KeysetPage, Ok } from './common.ts';

/** What every admin list page carries besides its rows, as the dashboard's pager reads them. */
export type ListPage = KeysetPage & {
  /** Offset pages only: the rows there are, counted up to 1,000 + a page. */
  total?: number;
  /** Offset pages only: false when there are more rows than `total` (the count stopped). */
  total_exact?: boolean;
};

export type UsersResponse = Ok<{ users: AdminUser[] } & ListPage>;
export type UserTransactionsResponse = Ok<{ transactions: AdminTransaction[] } & ListPage>;
export type TasksResponse = Ok<{ tasks: AdminTask[] } & ListPage>;
export type PaymentsResponse = Ok<{ payments: AdminPayment[] } & ListPage>;
export type WebhooksResponse = Ok<{ events: AdminWebhookEvent[] } & ListPage>;
export type ActionsResponse = Ok<{ actions: AdminAction[] } & ListPage>;
