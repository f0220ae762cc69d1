/**
 * The signed-in user's payments for the billing page (issue 37, item 2): paid checkouts (a pack,
 * or a plan's first period), paid subscription invoices (Stripe renewals) and local renewals (the
 * local checkout's stand-in for them, known by their receipts: no other row records a payment),
 * newest first, keyset-paged on (paid at, source, id). Each source is read through its own index
 * in that order (checkout_sessions_user_paid_idx, invoice_payments_user_created_idx,
 * receipt_emails_user_idx) and the short lists are merged, so a page costs the same however long
 * the history is. The first invoice of a subscription started by one of our checkouts is that
 * checkout's payment, shown once.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import { CURSOR_TIMESTAMP_FORMAT, decodeCursor, encodeCursor } from '../../core/cursor.ts';
import { badRequest } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import type { BillingPayment } from '../../../shared/api/billing-portal.ts';
import {
  BILLING_CYCLES,
  CURRENCY,
  findPlan,
  PLANS,
  planPrice,
  toCents,
  type BillingCycle,
} from '../../../shared/billing.ts';

/** The sources, ranked for the order within one timestamp (the last first when equal). */
const SOURCES = ['checkout', 'invoice', 'renewal'] as const;
type Source = (typeof SOURCES)[number];

interface PaymentRow {
  source: Source;
  key: string;
  kind: 'subscription' | 'credits';
  item_id: string;
  billing_cycle: BillingCycle | null;
  amount_cents: number;
  discount_cents: number;
  currency: string;
  cursor_ts: string;
  /** An invoice's: the credits a month its payment bought (names its plan after a switch). */
  credits_per_month: number | null;
  receipt_number: string | null;
}

const tsText = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', ${sql.raw(`'${CURSOR_TIMESTAMP_FORMAT}'`)})`;

/** The cursor's position, read back: its time, its source and the row's own id. */
function readCursor(cursor: string): { ts: string; source: Source; id: string } {
  const key = decodeCursor(cursor, 'text');
  const at = key.id.indexOf(':');
  const source = key.id.slice(0, at) as Source;
  if (at < 1 || !SOURCES.includes(source))
    throw badRequest(msg('cursor.malformed'), 'INVALID_CURSOR');
  return { ts: key.ts, source, id: key.id.slice(at + 1) };
}

/**
 * The rows of one source after the cursor in (ts desc, source desc, id desc) order: the same
 * source compares (ts, id); the other one compares ts alone (strictly before when it ranks lower).
 */
function after(
  source: Source,
  ts: SQL,
  id: SQL,
  cursor: ReturnType<typeof readCursor> | null,
): SQL {
  if (!cursor) return sql`true`;
  if (cursor.source === source)
    return sql`(${ts}, ${id}) < (${cursor.ts}::timestamptz, ${cursor.id})`;
  const ranksLower = SOURCES.indexOf(source) < SOURCES.indexOf(cursor.source);
  return ranksLower
    ? sql`${ts} <= ${cursor.ts}::timestamptz`
    : sql`${ts} < ${cursor.ts}::timestamptz`;
}

/** One page of the user's payments, newest first; `cursor` is a previous page's next_cursor. */
export async function listPayments(
  db: DbOrTx,
  userId: string,
  opts: { cursor?: string | undefined; limit: number },
): Promise<{ payments: BillingPayment[]; next_cursor: string | null; has_more: boolean }> {
  const cursor = opts.cursor === undefined ? null : readCursor(opts.cursor);
  const rows = await queryRows<PaymentRow>(db, paymentsQuery(userId, cursor, opts.limit + 1));
  const has_more = rows.length > opts.limit;
  const page = has_more ? rows.slice(0, opts.limit) : rows;
  const last = page.at(-1);
  return {
    payments: page.map(toPayment),
    next_cursor:
      has_more && last
        ? encodeCursor({ ts: last.cursor_ts, id: `${last.source}:${last.key}` })
        : null,
    has_more,
  };
}

/** The statement of one page (`take` rows after `cursor`); exported for its plan's test. */
export function paymentsQuery(
  userId: string,
  cursor: string | ReturnType<typeof readCursor> | null,
  take: number,
): SQL {
  if (typeof cursor === 'string') cursor = readCursor(cursor);
  return sql`select p.*, r.receipt_number
      from (
        (select 'checkout' as source, c.id as key, c.kind, c.item_id, c.billing_cycle,
            c.amount_cents, c.discount_cents, c.currency, c.completed_at as paid_at,
            ${tsText(sql`c.completed_at`)} as cursor_ts, null::integer as credits_per_month
          from checkout_sessions c
          where c.user_id = ${userId} and c.status = 'paid' and c.completed_at is not null
            and ${after('checkout', sql`c.completed_at`, sql`c.id`, cursor)}
          order by c.completed_at desc, c.id desc
          limit ${take})
        union all
        (select 'invoice' as source, ip.invoice_id as key, 'subscription' as kind,
            s.plan_id as item_id, s.billing_cycle, ip.amount_cents, ip.discount_cents,
            ${CURRENCY} as currency, ip.created_at as paid_at,
            ${tsText(sql`ip.created_at`)} as cursor_ts, ip.credits_per_month
          from invoice_payments ip
          join subscriptions s on s.id = ip.subscription_id
          where ip.user_id = ${userId}
            and ${after('invoice', sql`ip.created_at`, sql`ip.invoice_id`, cursor)}
            and not (
              exists (select 1 from checkout_sessions c
                where c.user_id = ${userId} and c.subscription_id = ip.subscription_id
                  and c.status = 'paid')
              and not exists (select 1 from invoice_payments earlier
                where earlier.subscription_id = ip.subscription_id
                  and (earlier.period_start, earlier.created_at)
                    < (ip.period_start, ip.created_at))
            )
          order by ip.created_at desc, ip.invoice_id desc
          limit ${take})
        union all
        (select 'renewal' as source, substr(lr.source_key, 9) as key, 'subscription' as kind,
            s.plan_id as item_id, s.billing_cycle, 0 as amount_cents, 0 as discount_cents,
            ${CURRENCY} as currency, lr.created_at as paid_at,
            ${tsText(sql`lr.created_at`)} as cursor_ts, null::integer as credits_per_month
          from receipt_emails lr
          join subscriptions s on s.id = split_part(lr.source_key, ':', 3)
          where lr.user_id = ${userId} and lr.kind = 'renewal'
            and lr.source_key like 'invoice:local:%'
            and ${after('renewal', sql`lr.created_at`, sql`substr(lr.source_key, 9)`, cursor)}
          order by lr.created_at desc, key desc
          limit ${take})
      ) p
      left join receipt_emails r
        on r.source_key = (case p.source when 'checkout' then 'checkout:' else 'invoice:' end) || p.key
      order by p.paid_at desc, p.source desc, p.key desc
      limit ${take}`;
}

/** Whether the user has paid for anything, or has a subscription in any state. */
export async function hasBillingHistory(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`select (
      exists (select 1 from checkout_sessions where user_id = ${userId} and status = 'paid')
      or exists (select 1 from subscriptions where user_id = ${userId})
      or exists (select 1 from invoice_payments where user_id = ${userId})
    ) as found`,
  );
  return row?.found === true;
}

/**
 * The plan an invoice paid for: the subscription's plan now, unless a switch in the customer
 * portal (plan-changes.ts) made that another: then the plan whose credits the payment bought, in
 * the cycle whose price it paid (before any discount).
 */
function invoicePlan(row: PaymentRow): { itemId: string; cycle: BillingCycle | null } {
  const plan = PLANS.find((p) => p.credits === row.credits_per_month);
  if (!plan || plan.id === row.item_id) return { itemId: row.item_id, cycle: row.billing_cycle };
  const paid = Number(row.amount_cents) + Number(row.discount_cents);
  const cycle = BILLING_CYCLES.find((c) => toCents(planPrice(plan, c)) === paid);
  return { itemId: plan.id, cycle: cycle ?? row.billing_cycle };
}

/** What a local renewal charged: its plan's catalogue price, as the local checkout charges. */
function localRenewalCents(row: PaymentRow): number {
  const plan = findPlan(row.item_id);
  return plan ? toCents(planPrice(plan, row.billing_cycle ?? 'monthly')) : 0;
}

function toPayment(row: PaymentRow): BillingPayment {
  const number = row.receipt_number;
  const item =
    row.source === 'invoice' ? invoicePlan(row) : { itemId: row.item_id, cycle: row.billing_cycle };
  return {
    id: `${row.source}:${row.key}`,
    type: row.kind,
    item_id: item.itemId,
    billing_cycle: item.cycle,
    amount_cents: row.source === 'renewal' ? localRenewalCents(row) : Number(row.amount_cents),
    discount_cents: Number(row.discount_cents),
    currency: row.currency,
    paid_at: new Date(row.cursor_ts.replace(/(\.\d{3})\d*Z$/, '$1Z')).toISOString(),
    receipt_number: number,
    receipt_url: number ? `/api/account/receipts/${encodeURIComponent(number)}` : null,
  };
}
