/** How the site writes prices and credit counts (pricing page, payment dialog, header). */

/** A catalogue price as the spec writes it: 29.9 → "$29.9", 286 → "$286". */
export const formatPrice = (dollars: number): string => `$${dollars}`;

/** 1340 → "1,340 credits". */
export const formatCredits = (credits: number): string =>
  `${credits.toLocaleString('en-US')} ${credits === 1 ? 'credit' : 'credits'}`;
