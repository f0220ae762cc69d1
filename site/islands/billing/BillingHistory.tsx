/**
 * The payments and receipts page (/account/billing, issue 37, item 2): the signed-in user's
 * payments, newest first, a page at a time ("Show older payments" follows the list's cursor),
 * each with what was bought, the amount and any discount, the date, and its receipt when one was
 * made. In local mode this page is where "Manage billing" leads; with Stripe it also offers the
 * customer portal. A `return` path in the address (set by the portal request) is the way back.
 */
import { useCallback, useEffect, useState } from 'react';
import type { BillingPayment } from '../../../shared/api/billing-portal.ts';
import { findPack, findPlan } from '../../../shared/billing.ts';
import { INTL_LOCALES, localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { getBillingSummary, getPayments } from '../../lib/api/billing-portal.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { formatPrice } from '../../lib/format.ts';
import { $authReady, $user } from '../../stores/auth.ts';
import LoadingScreen from '../LoadingScreen.tsx';
import SignInLink from '../shared/SignInLink.tsx';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';
import ManageBilling from './ManageBilling.tsx';
import ReceiptDialog from './ReceiptDialog.tsx';

const price = (cents: number, locale: Locale) => formatPrice(cents / 100, locale);

function itemName(payment: BillingPayment, locale: Locale): string {
  if (payment.type === 'credits') {
    return m.billing_item_pack(locale, {
      pack: findPack(payment.item_id)?.name ?? payment.item_id,
    });
  }
  const plan = findPlan(payment.item_id)?.name ?? payment.item_id;
  return payment.billing_cycle === 'yearly'
    ? m.billing_item_plan_yearly(locale, { plan })
    : m.billing_item_plan_monthly(locale, { plan });
}

const formatDate = (iso: string, locale: Locale) =>
  new Date(iso).toLocaleDateString(INTL_LOCALES[locale], {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });

/**
 * The page to go back to, from the address's `return` (set by the portal request): a path of
 * this site only (not `//host` or `/\\host`, which browsers read as another site), else none.
 */
function returnPath(): string | null {
  if (typeof window === 'undefined') return null;
  const path = new URLSearchParams(window.location.search).get('return');
  return path && /^\/(?![/\\])[^\s\\]*$/.test(path) ? path : null;
}

interface Receipt {
  number: string;
  url: string;
}

function PaymentRow({
  payment,
  onReceipt,
  locale,
}: {
  payment: BillingPayment;
  onReceipt: (receipt: Receipt) => void;
  locale: Locale;
}) {
  const date = formatDate(payment.paid_at, locale);
  const { receipt_number: number, receipt_url: url } = payment;
  return (
    <tr data-testid="billing-payment">
      <td data-label={m.billing_col_date(locale)}>
        <time dateTime={payment.paid_at}>{date}</time>
      </td>
      <td data-label={m.billing_col_item(locale)}>{itemName(payment, locale)}</td>
      <td data-label={m.billing_col_amount(locale)} className="billing-amount">
        <strong>{price(payment.amount_cents, locale)}</strong>
        {payment.discount_cents > 0 && (
          <span className="billing-discount">
            {m.billing_discount(locale, { amount: price(payment.discount_cents, locale) })}
          </span>
        )}
      </td>
      <td data-label={m.billing_col_receipt(locale)}>
        {number && url ? (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            aria-label={m.billing_receipt_label(locale, { number, date })}
            onClick={() => onReceipt({ number, url })}
          >
            {m.billing_receipt_button(locale, { number })}
          </button>
        ) : (
          <span className="billing-muted">{m.billing_no_receipt(locale)}</span>
        )}
      </td>
    </tr>
  );
}

function History({ locale }: { locale: Locale }) {
  const [payments, setPayments] = useState<BillingPayment[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [provider, setProvider] = useState<'stripe' | 'local' | null>(null);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [back] = useState(returnPath);

  /** Shows the page after `after` (null: the first page), added below the ones shown. */
  const show = useCallback(
    (after: string | null, page: Awaited<ReturnType<typeof getPayments>>) => {
      setPayments((shown) => [...(after ? (shown ?? []) : []), ...page.payments]);
      setCursor(page.has_more ? page.next_cursor : null);
    },
    [],
  );
  const failed = useCallback(
    (failure: unknown) => {
      console.error('[billing] payments unavailable', failure);
      setError(apiErrorMessage(failure, m.billing_load_failed(locale)));
    },
    [locale],
  );

  /** "Show older payments", or a retry after a failed load. */
  const load = async (after: string | null) => {
    setBusy(true);
    setError(null);
    try {
      show(after, await getPayments(after));
    } catch (failure) {
      failed(failure);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    let active = true;
    getPayments(null).then(
      (page) => active && show(null, page),
      (failure: unknown) => active && failed(failure),
    );
    getBillingSummary().then(
      (summary) => active && setProvider(summary.provider),
      (failure: unknown) => console.error('[billing] summary unavailable', failure),
    );
    return () => {
      active = false;
    };
  }, [show, failed]);

  return (
    <>
      {back && (
        <p className="billing-return">
          <a className="btn btn-secondary btn-sm" href={back} data-testid="billing-return">
            {m.billing_back(locale)}
          </a>
        </p>
      )}
      {provider === 'stripe' && (
        <p className="billing-portal">
          <ManageBilling locale={locale} className="btn btn-primary" />
        </p>
      )}
      {provider === 'local' && (
        <p className="account-section__note">{m.billing_local_note(locale)}</p>
      )}
      <section
        className="card account-section billing-history"
        aria-label={m.billing_list_label(locale)}
      >
        {payments === null && !error && (
          <p className="account-section__note" role="status">
            <span className="spinner spinner-sm" aria-hidden="true" /> {m.billing_loading(locale)}
          </p>
        )}
        {payments?.length === 0 && (
          <div className="billing-empty">
            <p>{m.billing_empty(locale)}</p>
            <a className="btn btn-primary" href={localizePath('/pricing', locale)}>
              {m.billing_pricing_link(locale)}
            </a>
          </div>
        )}
        {payments && payments.length > 0 && (
          <table className="billing-table">
            <thead>
              <tr>
                <th scope="col">{m.billing_col_date(locale)}</th>
                <th scope="col">{m.billing_col_item(locale)}</th>
                <th scope="col">{m.billing_col_amount(locale)}</th>
                <th scope="col">{m.billing_col_receipt(locale)}</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((payment) => (
                <PaymentRow
                  key={payment.id}
                  payment={payment}
                  onReceipt={setReceipt}
                  locale={locale}
                />
              ))}
            </tbody>
          </table>
        )}
        {error && (
          <div className="billing-failed">
            <p className="account-section__error" role="alert">
              {error}
            </p>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => void load(cursor)}
            >
              {m.billing_retry(locale)}
            </button>
          </div>
        )}
        {cursor && !error && (
          <button
            type="button"
            className="btn btn-secondary billing-more"
            disabled={busy}
            onClick={() => void load(cursor)}
          >
            {busy ? m.billing_loading(locale) : m.billing_more(locale)}
          </button>
        )}
      </section>
      <ReceiptDialog receipt={receipt} onClose={() => setReceipt(null)} locale={locale} />
    </>
  );
}

export default function BillingHistory({ locale = 'en' }: { locale?: Locale }) {
  const ready = useHydratedStore($authReady);
  const user = useHydratedStore($user);

  if (!ready) return <LoadingScreen variant="inline" locale={locale} />;
  if (!user) {
    return (
      <section className="card account-section" data-testid="account-sign-in">
        <h2>{m.billing_sign_in_title(locale)}</h2>
        <p>{m.billing_sign_in_text(locale)}</p>
        <SignInLink className="btn btn-primary" locale={locale}>
          {m.billing_sign_in(locale)}
        </SignInLink>
      </section>
    );
  }
  // Another account signing in on this page starts the list afresh.
  return <History key={user.id} locale={locale} />;
}
