/**
 * Issue 16, finding 15: the local checkout's Pay and Cancel forms accepted a post from any site.
 * A post now needs the page's form token (an HMAC of the session id), and is refused when the
 * browser says it came from another site (`Sec-Fetch-Site: cross-site`, or an `Origin` other
 * than PUBLIC_SITE_URL's; the Host header is never the reference).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, SITE_ORIGIN } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';
import { localCheckoutToken } from '../helpers/local-checkout.ts';

type Post = { headers: Record<string, string>; token: 'page' | 'none' | 'other' | 'forged' };

/** Posts the browser's same-origin form would never send, or another site could. */
const REFUSED: Array<[string, Post]> = [
  ['a post from another origin', { headers: { origin: 'https://evil.example' }, token: 'page' }],
  [
    'a cross-site post without Origin',
    { headers: { 'sec-fetch-site': 'cross-site' }, token: 'page' },
  ],
  [
    'a cross-site post that names the site as Origin',
    { headers: { origin: SITE_ORIGIN, 'sec-fetch-site': 'cross-site' }, token: 'page' },
  ],
  ['an opaque origin', { headers: { origin: 'null' }, token: 'page' }],
  [
    'an Origin that matches a forged Host',
    { headers: { host: 'evil.example', origin: 'http://evil.example' }, token: 'page' },
  ],
  ['a post without the form token', { headers: { origin: SITE_ORIGIN }, token: 'none' }],
  ["another checkout's token", { headers: { origin: SITE_ORIGIN }, token: 'other' }],
  ['a made-up token', { headers: { origin: SITE_ORIGIN }, token: 'forged' }],
];

describe('Local checkout cross-origin posts', () => {
  describe.each(databaseKinds)('on %s', (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t.close());

    /** A fresh Starter checkout of a new buyer, with its page's form token. */
    const openCheckout = async (email: string) => {
      const buyer = await signInLocal(t.app, email);
      const created = await requestCheckout(t.app, buyer.token, {
        type: 'credits',
        package_id: 'starter',
      });
      expect(created.statusCode).toBe(200);
      const sessionId = created.json().sessionId as string;
      const page = await t.app.inject({ url: `/checkout/local/${sessionId}` });
      return { buyer, sessionId, page: page.body, token: localCheckoutToken(page.body) };
    };
    const post = (
      sessionId: string,
      action: 'pay' | 'cancel',
      { headers, token }: Post,
      own: string,
      other: string,
    ) => {
      const value = { page: own, none: null, other, forged: 'A'.repeat(own.length || 43) }[token];
      return t.app.inject({
        method: 'POST',
        url: `/checkout/local/${sessionId}/${action}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: value === null ? '' : new URLSearchParams({ checkout_token: value }).toString(),
      });
    };
    const checkoutState = async (token: string, sessionId: string) =>
      (
        await t.app.inject({ url: `/api/stripe/checkout/${sessionId}`, headers: bearer(token) })
      ).json().data.status as string;

    it('puts a per-checkout token in both forms of the page', async () => {
      const a = await openCheckout('ann-xo-token@example.com');
      const b = await openCheckout('bob-xo-token@example.com');
      expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(a.page.match(/name="checkout_token"/g)).toHaveLength(2);
      expect(b.token).not.toBe(a.token);
    });

    it.each(REFUSED)('refuses %s with a 403 page and pays nothing', async (_, request) => {
      const mine = await openCheckout(`ann-xo-${Math.random().toString(36).slice(2)}@example.com`);
      const other = await openCheckout(`bob-xo-${Math.random().toString(36).slice(2)}@example.com`);
      for (const action of ['pay', 'cancel'] as const) {
        const res = await post(mine.sessionId, action, request, mine.token, other.token);
        expect(res.statusCode, action).toBe(403);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers.location).toBeUndefined();
        expect(res.body).toContain('pricing page');
        expect(res.body).toContain(`href="${SITE_ORIGIN}/pricing"`);
      }
      expect(await creditBalance(t.app, mine.buyer.token)).toBe(0);
      expect(await checkoutState(mine.buyer.token, mine.sessionId)).toBe('open');
    });

    it.each<[string, Record<string, string>]>([
      ['from the site itself', { origin: SITE_ORIGIN, 'sec-fetch-site': 'same-origin' }],
      ['from a client that sends neither header', {}],
    ])('pays a post with the page token %s', async (_, headers) => {
      const mine = await openCheckout(
        `ann-xo-ok-${Math.random().toString(36).slice(2)}@example.com`,
      );
      const res = await post(mine.sessionId, 'pay', { headers, token: 'page' }, mine.token, '');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(
        `${SITE_ORIGIN}/pricing?payment=success&session_id=${mine.sessionId}`,
      );
      expect(await creditBalance(t.app, mine.buyer.token)).toBe(330);
      expect(await checkoutState(mine.buyer.token, mine.sessionId)).toBe('paid');
    });

    it('cancels a same-origin post with the page token', async () => {
      const mine = await openCheckout('ann-xo-cancel@example.com');
      const res = await post(
        mine.sessionId,
        'cancel',
        { headers: { origin: SITE_ORIGIN, 'sec-fetch-site': 'same-origin' }, token: 'page' },
        mine.token,
        '',
      );
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`${SITE_ORIGIN}/pricing?payment=cancelled`);
      expect(await checkoutState(mine.buyer.token, mine.sessionId)).toBe('canceled');
    });
  });
});
