/**
 * The admin lists' queries and answers (issue 19): users, tasks, payments, webhook events, the
 * audit log and a customer's ledger. Every list is newest first by (time, id) and pages two ways:
 * `offset` for the shallow pages (up to 1,000 rows in; deeper is a 400 that points to `cursor`),
 * or `cursor`, a previous page's `next_cursor`, which starts the next page in constant time
 * however deep. An offset page carries `total`, counted no further than the offsets can reach
 * (past that `total` is that bound and `total_exact` is false: "1,020+"); a cursor page carries
 * none, and `has_more` says whether there is a next page. The rows' schemas are in admin.ts.
 */
import { Type, type Static } from 'typebox';
import { ADMIN_PAGE_MAX, ADMIN_PAGE_SIZE } from '../../shared/admin.ts';
import { EMAIL_MAX_LENGTH } from '../../shared/auth.ts';
import type * as api from '../../shared/api/admin-lists.ts';
import { KeysetFields, Ok, schemaFor } from './common.ts';
import {
  AdminAction,
  AdminPayment,
  AdminTask,
  AdminTaskStatus,
  AdminTransaction,
  AdminUser,
  AdminWebhookEvent,
} from './admin.ts';

// ─── Queries ───────────────────────────────────────────────────────────────

const Offset = Type.Integer({
  minimum: 0,
  maximum: 1_000_000,
  default: 0,
  description: 'Rows to skip: up to 1,000; deeper pages are served by cursor.',
});
const Limit = Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, default: ADMIN_PAGE_SIZE });
const Cursor = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 512,
    description: "The previous page's next_cursor: the page after it (leave offset out).",
  }),
);

export const PageQuery = Type.Object(
  { offset: Offset, limit: Limit, cursor: Cursor },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

export const UsersQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        maxLength: EMAIL_MAX_LENGTH,
        description: 'A part of the email, 3 characters at least (a trigram search).',
      }),
    ),
    offset: Offset,
    limit: Limit,
    cursor: Cursor,
  },
  { additionalProperties: false },
);
export type UsersQuery = Static<typeof UsersQuery>;

export const TasksQuery = Type.Object(
  { status: Type.Optional(AdminTaskStatus), offset: Offset, limit: Limit, cursor: Cursor },
  { additionalProperties: false },
);
export type TasksQuery = Static<typeof TasksQuery>;

// ─── Answers ───────────────────────────────────────────────────────────────

/** What every admin list page carries besides its rows (see the top of this file). */
const ListPageFields = {
  /** Offset pages only: the rows there are, counted up to 1,000 + a page. */
  total: Type.Optional(Type.Integer()),
  /** Offset pages only: false when there are more rows than `total` (the count stopped). */
  total_exact: Type.Optional(Type.Boolean()),
  ...KeysetFields,
};

/** The page fields without the rows, as the dashboard's pager reads them. */
export type ListPage = api.ListPage;

export const UsersResponse = schemaFor<api.UsersResponse>()(
  Ok(Type.Object({ users: Type.Array(AdminUser), ...ListPageFields })),
);
export type UsersResponse = api.UsersResponse;

export const UserTransactionsResponse = schemaFor<api.UserTransactionsResponse>()(
  Ok(Type.Object({ transactions: Type.Array(AdminTransaction), ...ListPageFields })),
);
export type UserTransactionsResponse = api.UserTransactionsResponse;

export const TasksResponse = schemaFor<api.TasksResponse>()(
  Ok(Type.Object({ tasks: Type.Array(AdminTask), ...ListPageFields })),
);
export type TasksResponse = api.TasksResponse;

export const PaymentsResponse = schemaFor<api.PaymentsResponse>()(
  Ok(Type.Object({ payments: Type.Array(AdminPayment), ...ListPageFields })),
);
export type PaymentsResponse = api.PaymentsResponse;

export const WebhooksResponse = schemaFor<api.WebhooksResponse>()(
  Ok(Type.Object({ events: Type.Array(AdminWebhookEvent), ...ListPageFields })),
);
export type WebhooksResponse = api.WebhooksResponse;

export const ActionsResponse = schemaFor<api.ActionsResponse>()(
  Ok(Type.Object({ actions: Type.Array(AdminAction), ...ListPageFields })),
);
export type ActionsResponse = api.ActionsResponse;
