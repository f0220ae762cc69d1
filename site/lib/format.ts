/** How the site writes prices and credit counts (pricing page, payment dialog, header). */

/** A price in dollars, always with cents (issue 20): 29.9 → "$29.90", 286 → "$286.00". */
export const formatPrice = (dollars: number): string =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** 1340 → "1,340 credits". */
export const formatCredits = (credits: number): string =>
  `${credits.toLocaleString('en-US')} ${credits === 1 ? 'credit' : 'credits'}`;
