/** How the dashboard writes dates, money and credits: in the admin's own locale. */

/** Date and time in the browser's locale; an unreadable value shows as it came. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Date and time apart ("Nov 22, 2026" and "2:05 AM"), for places that show them on two lines. */
export function formatDateAndTime(iso: string | null | undefined): { date: string; time: string } {
  if (!iso) return { date: '—', time: '' };
  const value = new Date(iso);
  if (Number.isNaN(value.getTime())) return { date: iso, time: '' };
  return {
    date: value.toLocaleDateString(undefined, { dateStyle: 'medium' }),
    time: value.toLocaleTimeString(undefined, { timeStyle: 'short' }),
  };
}

/** "1,340 credits" / "1 credit", numbers grouped in the admin's locale. */
export function formatCredits(credits: number): string {
  return `${credits.toLocaleString()} ${Math.abs(credits) === 1 ? 'credit' : 'credits'}`;
}

/** A ledger amount with its sign: "+50", "−17". */
export function formatSigned(amount: number): string {
  if (amount > 0) return `+${amount.toLocaleString()}`;
  if (amount < 0) return `−${Math.abs(amount).toLocaleString()}`;
  return '0';
}

/** Cents in a currency ("usd") as the locale writes money; an unknown code falls back to "12.90 XYZ". */
export function formatMoney(cents: number, currency: string): string {
  const code = currency.toUpperCase();
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(
      cents / 100,
    );
  } catch {
    return `${(cents / 100).toFixed(2)} ${code}`;
  }
}

/** A long prompt cut to `max` characters on a word boundary where one is near. */
export function shorten(text: string, max = 80): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** "Starter pack", "Pro+ plan": what a payment bought. */
export function describePurchase(kind: 'plan' | 'pack', itemId: string): string {
  const name = itemId ? itemId.charAt(0).toUpperCase() + itemId.slice(1) : 'Unknown';
  return `${name} ${kind}`;
}
