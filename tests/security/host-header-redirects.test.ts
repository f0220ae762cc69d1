/**
 * Issue 16, finding 7: checkout return URLs were checked against the origin the request named in
 * its Host header, so `Host: evil.example` made any evil.example address a valid place to send
 * the buyer after paying. Every absolute link now comes from PUBLIC_SITE_URL, and a client-sent
 * return URL is a path of the site (or an address on PUBLIC_SITE_URL itself).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeFake, type StripeFake } from '../fakes/stripe/index.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { submitLocalCheckout, stripeEnv } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';
import { filesUnder, rel } from '../helpers/source-tree.ts';

const PUBLIC_SITE_URL = 'https://studio.example';
/** What a forged request claims to be: the Host, and the proxy headers a trusted proxy would set. */
const FORGED_HOST = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
};

/** Return URLs a client may not choose: other origins, and paths a browser reads as one. */
const REFUSED: string[] = [
  'https://evil.example/x',
  'http://evil.example/pricing',
  '//evil.example/x',
  '/\\evil.example/x',
  '\\\\evil.example/x',
  '/\t/evil.example/x',
  '/\u0001/evil.example/x',
  '/pricing\r\nSet-Cookie: a=b',
  'https://studio.example.evil.example/x',
  'https://studio.example@evil.example/x',
  'http://studio.example/pricing',
  'pricing',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
];

describe('Redirects built from the Host header', () => {
  describe.each(databaseKinds)('with the local checkout on %s', (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, { env: { PUBLIC_SITE_URL } });
    });
    afterAll(() => t.close());

    const checkout = (token: string, urls: { success_url?: string; cancel_url?: string }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/stripe/create-payment-intent',
        headers: { ...bearer(token), ...FORGED_HOST },
        payload: {
          type: 'credits',
          package_id: 'starter',
          // Addresses on PUBLIC_SITE_URL pass before and after the fix: each case varies one.
          success_url: `${PUBLIC_SITE_URL}/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${PUBLIC_SITE_URL}/pricing?payment=cancelled`,
          ...urls,
        },
      });

    it.each(
      REFUSED.flatMap((url) => [['success_url', url] as const, ['cancel_url', url] as const]),
    )('refuses %s %j with a 400 that says what to send', async (name, url) => {
      const ann = await signInLocal(t.app, 'ann-host@example.com');
      const res = await checkout(ann.token, { [name]: url });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.code).toBe('INVALID_RETURN_URL');
      expect(body.message).toContain(`'${name}'`);
      expect(body.message).toContain('/pricing');
      expect(body.message).toMatch(/\.$/);
    });

    it('builds the return addresses from PUBLIC_SITE_URL, whatever Host the request names', async () => {
      const ann = await signInLocal(t.app, 'ann-host-paid@example.com');
      const res = await checkout(ann.token, {
        success_url: '/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}',
        cancel_url: '/pricing?payment=cancelled',
      });
      expect(res.statusCode).toBe(200);
      const { sessionId } = res.json();
      const paid = await submitLocalCheckout(t.app, sessionId, 'pay', {
        origin: PUBLIC_SITE_URL,
      });
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toBe(
        `${PUBLIC_SITE_URL}/pricing?payment=success&session_id=${sessionId}`,
      );

      const other = (await checkout(ann.token, {})).json().sessionId as string;
      const cancelled = await submitLocalCheckout(t.app, other, 'cancel', {
        origin: PUBLIC_SITE_URL,
      });
      expect(cancelled.statusCode).toBe(303);
      expect(cancelled.headers.location).toBe(`${PUBLIC_SITE_URL}/pricing?payment=cancelled`);
    });
  });

  describe('with Stripe (fake), behind a trusted proxy', () => {
    let stripe: StripeFake;
    let t: TestApp;
    beforeAll(async () => {
      stripe = await startStripeFake();
      t = await createTestApp(databaseKinds[0]!, {
        env: {
          PUBLIC_SITE_URL,
          TRUST_PROXY: 'true',
          ...stripeEnv(stripe),
        },
      });
    });
    afterAll(async () => {
      await t.close();
      await stripe.close();
    });

    const lastSessionRequest = () =>
      stripe.requests
        .filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')
        .at(-1)?.body as Record<string, unknown> | undefined;

    it.each([
      ['/pricing?ok=1', `${PUBLIC_SITE_URL}/pricing?ok=1`],
      [
        '/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}',
        `${PUBLIC_SITE_URL}/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}`,
      ],
      [`${PUBLIC_SITE_URL}/pricing?ok=2`, `${PUBLIC_SITE_URL}/pricing?ok=2`],
    ])('sends Stripe %j as %j', async (sent, received) => {
      const ann = await signInLocal(t.app, 'ann-host-stripe@example.com');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/create-payment-intent',
        headers: { ...bearer(ann.token), ...FORGED_HOST },
        payload: { type: 'credits', package_id: 'starter', success_url: sent, cancel_url: sent },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(lastSessionRequest()).toMatchObject({ success_url: received, cancel_url: received });
    });

    it('never asks Stripe to send the buyer to the forged host', async () => {
      const ann = await signInLocal(t.app, 'ann-host-forged@example.com');
      const before = stripe.requests.length;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/create-payment-intent',
        headers: { ...bearer(ann.token), ...FORGED_HOST },
        payload: {
          type: 'credits',
          package_id: 'starter',
          success_url: 'https://evil.example/x',
          cancel_url: `${PUBLIC_SITE_URL}/pricing`,
        },
      });
      expect(res.statusCode).toBe(400);
      expect(stripe.requests.slice(before).some((r) => r.path === '/v1/checkout/sessions')).toBe(
        false,
      );
    });
  });

  it('no server module builds an address from the request Host or proxy headers', () => {
    const hostDerived =
      /request\.(host|hostname|protocol)\b|req\.(host|hostname|protocol)\b|headers\.host\b|headers\[['"](host|x-forwarded-host|x-forwarded-proto)['"]\]|x-forwarded-host/i;
    const offending = filesUnder('server', ['.ts']).filter((file) =>
      hostDerived.test(readFileSync(file, 'utf8')),
    );
    expect(offending.map(rel)).toEqual([]);
  });
});
