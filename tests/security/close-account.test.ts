/**
 * Issue 34, finding 10 (a customer cannot delete anything): there was no way to close an account,
 * which customers expect and EU and Californian privacy law require. Now `DELETE /api/account`,
 * confirmed by the password (email accounts) or a sign-in of the last 5 minutes (Google, local),
 * cancels the subscription at the payment provider (Stripe: now; local checkout: here), deletes
 * every video and upload from the media store, revokes every session and replaces the personal
 * data with a tombstone; the ledger and payment records stay under the user id, and the ledger
 * still adds up to the balance. `GET /api/account/export` hands the customer their data first.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { hashPassword } from '../../server/core/passwords.ts';
import { hashToken } from '../../server/core/tokens.ts';
import { users } from '../../server/db/schema.ts';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import { startGoogleFake, type GoogleFake } from '../fakes/google.ts';
import { startStripeFake, type SignedEvent, type StripeFake } from '../fakes/stripe/index.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, stripeEnv, submitLocalCheckout } from '../helpers/billing.ts';
import { ledgerChecks } from '../resilience/invariants.ts';
import { databaseKinds } from '../helpers/database.ts';
import {
  drainQueue,
  fakeProvider,
  grantCredits,
  pngImage,
  requestGeneration,
  routesTo,
  testWorker,
} from '../helpers/video.ts';

interface Signed {
  token: string;
  user: { id: string; email: string };
}

/**
 * The ledger invariant (tests/resilience/invariants.ts, as /api/credits/validate checks it): each
 * balance is the sum of its ledger, rows chain, every task is charged once and every failure
 * refunded once. Paid checkouts are left out: a Stripe subscription grants by invoice.
 */
async function expectLedgerAddsUp(t: TestApp, userIds: string[]) {
  for (const userId of userIds) {
    expect((await createCreditsService(t.database.db).validate(userId)).valid, userId).toBe(true);
  }
  const skipped = [
    'every paid checkout granted exactly once',
    'balance = packs paid − videos kept',
  ];
  const broken = (await ledgerChecks(t.database.db)).filter(
    (check) => !check.ok && !skipped.includes(check.name),
  );
  expect(broken).toEqual([]);
}

/** Helpers over one test app: sign-ins, videos, and what the database holds for a user. */
function accountHelpers(get: () => TestApp) {
  const db = () => get().database.db;
  return {
    close: (token: string, body: object) =>
      get().app.inject({
        method: 'DELETE',
        url: '/api/account',
        headers: bearer(token),
        payload: body,
      }),
    me: (token: string) => get().app.inject({ url: '/api/auth/user', headers: bearer(token) }),
    async exportOf(token: string) {
      const res = await get().app.inject({ url: '/api/account/export', headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[\w.-]+\.json"$/);
      return res.json().data as {
        profile: Record<string, unknown>;
        ledger: Array<{ id: string; amount: number; balance_after: number; source_id: string }>;
        tasks: Array<{ id: string; status: string; prompt: string; deleted_at: string | null }>;
        payments: {
          checkouts: Array<{ id: string; status: string }>;
          subscriptions: Array<{ id: string; status: string }>;
          receipts: Array<{ receipt_number: string; kind: string; payload: unknown }>;
        };
      };
    },
    /** Two finished videos (one image-mode), their media keys; the second one deleted. */
    async videosOf(signed: Signed) {
      const image = { name: 'image', filename: 'f.png', type: 'image/png', data: await pngImage() };
      const first = await requestGeneration(
        get().app,
        signed.token,
        { prompt: 'A red fox in fresh snow', model: 'veo3-fast-frames' },
        image,
      );
      const second = await requestGeneration(get().app, signed.token, {
        prompt: 'A boat at sea',
        model: 'veo3',
      });
      expect([first.statusCode, second.statusCode], first.body + second.body).toEqual([200, 200]);
      await drainQueue(
        db(),
        testWorker(get(), {
          providers: { local: fakeProvider({ name: 'local' }) },
          routes: routesTo('local'),
        }),
      );
      const gone = second.json().data.taskId as string;
      const deleted = await get().app.inject({
        method: 'DELETE',
        url: `/api/video/${gone}`,
        headers: bearer(signed.token),
      });
      expect(deleted.statusCode).toBe(204);
      const rows = await queryRows<{ result_url: string; poster_url: string }>(
        db(),
        sql`select result_url, poster_url from video_tasks
            where user_id = ${signed.user.id} and deleted_at is null`,
      );
      const keys = rows.flatMap((r) => [r.result_url.slice(1), r.poster_url.slice(1)]);
      // An upload a crashed worker left behind.
      const upload = `uploads/${first.json().data.taskId as string}.png`;
      await get().app.mediaStore.put(upload, await pngImage(), { contentType: 'image/png' });
      return [...keys, upload];
    },
    rowsOf: async (table: string, userId: string) =>
      queryRows<Record<string, unknown>>(
        db(),
        sql`select * from ${sql.identifier(table)} where user_id = ${userId} order by 1`,
      ),
    async userRow(id: string) {
      const [row] = await queryRows<Record<string, unknown>>(
        db(),
        sql`select * from ${users} where id = ${id}`,
      );
      return row!;
    },
  };
}

describe.each(databaseKinds)('closing an account on %s (Stripe and Google)', (kind) => {
  let google: GoogleFake;
  let stripe: StripeFake;
  let t: TestApp;
  const h = accountHelpers(() => t);

  beforeAll(async () => {
    google = await startGoogleFake();
    stripe = await startStripeFake();
    t = await createTestApp(kind, {
      env: {
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_JWKS_URL: google.jwksUrl,
        GOOGLE_TOKENINFO_URL: google.tokeninfoUrl,
        GOOGLE_USERINFO_URL: google.userinfoUrl,
        ...stripeEnv(stripe),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
    await google.close();
  });

  const deliver = (signed: SignedEvent) =>
    t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      payload: signed.payload,
    });

  /** An email account with a proven address and a password, signed in. */
  async function emailAccount(email: string, password: string): Promise<Signed> {
    await t.database.db.insert(users).values({
      email,
      name: 'Erin Email',
      provider: 'email',
      passwordHash: await hashPassword(password),
      emailVerifiedAt: new Date(),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/signin',
      payload: { email, password },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Signed;
  }

  async function googleSignIn(sub: string, email: string): Promise<Signed> {
    const credential = await google.signIdToken({ sub, email, name: 'Gail Google' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/google',
      payload: { credential },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Signed;
  }

  /** A paid monthly subscription through Stripe's checkout; its id. */
  async function subscribe(signed: Signed): Promise<string> {
    const res = await requestCheckout(t.app, signed.token, {
      type: 'subscription',
      plan_id: 'lite',
      billing_cycle: 'monthly',
    });
    expect(res.statusCode, res.body).toBe(200);
    const events = stripe.completeCheckout(res.json().sessionId as string);
    for (const event of events) expect((await deliver(event)).statusCode).toBe(200);
    const created = events.find((e) => e.event.type === 'customer.subscription.created');
    return String(created!.event.data.object.id);
  }

  it('refuses a wrong or missing password with 4xx and leaves the account as it was', async () => {
    const erin = await emailAccount('erin-wrong@example.com', 'correct horse 1');
    const wrong = await h.close(erin.token, { confirm: true, password: 'not the password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ success: false, code: 'PASSWORD_WRONG' });
    expect(wrong.json().message).toMatch(/password is not right/);
    const missing = await h.close(erin.token, { confirm: true });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'PASSWORD_REQUIRED' });
    const unconfirmed = await h.close(erin.token, { password: 'correct horse 1' });
    expect(unconfirmed.statusCode).toBe(400);
    expect((await h.me(erin.token)).statusCode).toBe(200);
    expect(await h.userRow(erin.user.id)).toMatchObject({ email: 'erin-wrong@example.com' });
  });

  it('cancels the subscription at Stripe, deletes the media, ends every session and keeps the ledger; the export taken before matches the data', async () => {
    const password = 'correct horse 2';
    const erin = await emailAccount('erin-closes@example.com', password);
    const laptop = await t.app.inject({
      method: 'POST',
      url: '/auth/signin',
      payload: { email: erin.user.email, password },
    });
    await grantCredits(t, erin.user.id, 100);
    const subscriptionId = await subscribe(erin);
    const keys = await h.videosOf(erin);
    for (const key of keys) expect(await t.app.mediaStore.head(key), key).not.toBeNull();

    // The export, taken before closing, is what the database holds.
    const data = await h.exportOf(erin.token);
    const ledger = await h.rowsOf('credit_transactions', erin.user.id);
    const tasks = await h.rowsOf('video_tasks', erin.user.id);
    expect(data.profile).toMatchObject({
      id: erin.user.id,
      email: 'erin-closes@example.com',
      name: 'Erin Email',
      provider: 'email',
    });
    expect(data.ledger.map((r) => r.id).sort()).toEqual(ledger.map((r) => r.id).sort());
    expect(data.ledger.reduce((sum, r) => sum + r.amount, 0)).toBe(
      (await h.userRow(erin.user.id)).credits,
    );
    expect(data.tasks.map((r) => r.id).sort()).toEqual(tasks.map((r) => r.id).sort());
    expect(data.tasks.filter((r) => r.deleted_at !== null)).toHaveLength(1);
    expect(data.payments.subscriptions).toEqual([
      expect.objectContaining({ id: subscriptionId, status: 'active' }),
    ]);
    expect(data.payments.checkouts).toEqual([
      expect.objectContaining({ status: 'paid', discount_cents: 0, locale: 'en' }),
    ]);
    // The receipt of that payment (issue 37), as the database holds it.
    const receipts = await h.rowsOf('receipt_emails', erin.user.id);
    expect(receipts).toHaveLength(1);
    expect(data.payments.receipts).toEqual([
      expect.objectContaining({
        receipt_number: receipts[0]!.receipt_number,
        kind: 'payment',
        payload: receipts[0]!.payload,
      }),
    ]);
    stripe.takeEvents();

    const res = await h.close(erin.token, { confirm: true, password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: expect.stringMatching(/closed/) });

    // Cancelled now at Stripe (not at the period's end), and here.
    expect(
      stripe.requests.filter(
        (r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscriptionId}`,
      ),
    ).toHaveLength(1);
    const cancelled = stripe.takeEvents();
    expect(cancelled.map((e) => e.event.type)).toContain('customer.subscription.deleted');
    for (const event of cancelled) expect((await deliver(event)).statusCode).toBe(200);
    expect(await h.rowsOf('subscriptions', erin.user.id)).toEqual([
      expect.objectContaining({ id: subscriptionId, status: 'canceled' }),
    ]);

    // Every session is dead, and the password signs nobody in.
    for (const token of [erin.token, laptop.json().data.token as string]) {
      expect((await h.me(token)).statusCode).toBe(401);
    }
    const sessions = await h.rowsOf('sessions', erin.user.id);
    expect(sessions.filter((s) => s.revoked_at === null)).toEqual([]);
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/signin',
      payload: { email: 'erin-closes@example.com', password },
    });
    expect(again.statusCode).toBe(401);

    // The media is gone from the store.
    for (const key of keys) expect(await t.app.mediaStore.head(key), key).toBeNull();
    for (const key of keys.filter((k) => k.startsWith('media/'))) {
      expect((await t.app.inject({ url: `/${key}` })).statusCode).toBe(404);
    }

    // Personal data replaced by a tombstone; ledger, tasks and payments kept under the id.
    expect(await h.userRow(erin.user.id)).toMatchObject({
      email: `deleted-${erin.user.id}@deleted.invalid`,
      name: null,
      picture: null,
      avatar_url: null,
      password_hash: null,
      google_sub: null,
    });
    expect((await h.rowsOf('credit_transactions', erin.user.id)).map((r) => r.id)).toEqual(
      ledger.map((r) => r.id),
    );
    expect(await h.rowsOf('checkout_sessions', erin.user.id)).toHaveLength(1);
    const kept = await h.rowsOf('video_tasks', erin.user.id);
    expect(kept).toHaveLength(2);
    expect(kept.every((task) => task.prompt === '' && task.result_url === null)).toBe(true);
    await expectLedgerAddsUp(t, [erin.user.id]);
  });

  it('asks a Google account for a sign-in of the last 5 minutes, and refuses while a video is being made', async () => {
    const gail = await googleSignIn('sub-gail', 'gail@example.com');
    await grantCredits(t, gail.user.id, 40);
    await t.database.db.execute(
      sql`update sessions set created_at = now() - interval '6 minutes'
          where token_hash = ${hashToken(gail.token)}`,
    );
    const stale = await h.close(gail.token, { confirm: true });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ success: false, code: 'SIGN_IN_AGAIN' });
    expect(stale.json().message).toMatch(/sign in again/i);
    expect((await h.me(gail.token)).statusCode).toBe(200);

    const fresh = await googleSignIn('sub-gail', 'gail@example.com');
    expect(fresh.user.id).toBe(gail.user.id);
    const making = await requestGeneration(t.app, fresh.token, { prompt: 'Rain', model: 'veo3' });
    expect(making.statusCode, making.body).toBe(200);
    const busy = await h.close(fresh.token, { confirm: true });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ code: 'TASKS_UNFINISHED' });
    await drainQueue(
      t.database.db,
      testWorker(t, {
        providers: { local: fakeProvider({ name: 'local' }) },
        routes: routesTo('local'),
      }),
    );

    const res = await h.close(fresh.token, { confirm: true });
    expect(res.statusCode, res.body).toBe(200);
    for (const token of [gail.token, fresh.token]) expect((await h.me(token)).statusCode).toBe(401);
    expect(await h.userRow(gail.user.id)).toMatchObject({ google_sub: null, name: null });
    // The same Google identity later starts a new, empty account.
    const newcomer = await googleSignIn('sub-gail', 'gail@example.com');
    expect(newcomer.user.id).not.toBe(gail.user.id);
    await expectLedgerAddsUp(t, [gail.user.id]);
  });

  it('refuses an administrator session', async () => {
    const admin = await signInAdmin(t.app);
    const res = await h.close(admin, { confirm: true });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'ADMIN_SESSION' });
  });
});

describe.each(databaseKinds)('closing an account on %s (local checkout)', (kind) => {
  let t: TestApp;
  const h = accountHelpers(() => t);
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('marks a local subscription cancelled and closes the account of a fresh local sign-in', async () => {
    const lou: Signed = await signInLocal(t.app, 'lou-local@example.com', 'Lou Local');
    await grantCredits(t, lou.user.id, 100);
    const checkout = await requestCheckout(t.app, lou.token, {
      type: 'subscription',
      plan_id: 'lite',
      billing_cycle: 'monthly',
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const paid = await submitLocalCheckout(t.app, checkout.json().sessionId as string);
    expect(paid.statusCode).toBeLessThan(400);
    const keys = await h.videosOf(lou);
    const before = await h.exportOf(lou.token);
    expect(before.payments.subscriptions).toEqual([expect.objectContaining({ status: 'active' })]);

    const res = await h.close(lou.token, { confirm: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(await h.rowsOf('subscriptions', lou.user.id)).toEqual([
      expect.objectContaining({ status: 'canceled' }),
    ]);
    expect((await h.me(lou.token)).statusCode).toBe(401);
    for (const key of keys) expect(await t.app.mediaStore.head(key), key).toBeNull();
    expect(await h.userRow(lou.user.id)).toMatchObject({
      email: `deleted-${lou.user.id}@deleted.invalid`,
      name: null,
    });
    await expectLedgerAddsUp(t, [lou.user.id]);
  });
});
