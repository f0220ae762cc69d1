/** Stripe-shaped ids and timestamps for the Stripe fake. */
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += BASE62[b % 62];
  return out;
}

export const newId = (prefix: string, length = 24): string => `${prefix}_${randomToken(length)}`;
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
